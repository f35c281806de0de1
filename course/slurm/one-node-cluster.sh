#!/usr/bin/env bash
# one-node-cluster.sh start|stop DIR: a Slurm cluster of this one machine,
# everything in DIR (munge key and socket, slurm.conf, state, logs), for
# trying `scan-grade --slurm` and for the kit's test. Needs root (slurmd
# starts jobs as their user) and Debian's slurmctld, slurmd, slurm-client
# and munge. `start` prints the line to source: export SLURM_CONF=DIR/slurm.conf.
# Exit: 0 up (or stopped), 1 it could not start (the reason and the logs' tail).
set -u
cmd=${1:-} dir=${2:-}
[ -n "$dir" ] && [ "$cmd" = start -o "$cmd" = stop ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
export SLURM_CONF=$dir/slurm.conf

if [ "$cmd" = stop ]; then
    [ -f "$dir/slurmctld.pid" ] && scontrol shutdown >/dev/null 2>&1
    for pid in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munge/munged.pid; do
        [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
    done
    exit 0
fi

fail() { echo "one-node-cluster: $1" >&2; tail -n 5 "$dir"/log/*.log "$dir"/munge/munged.log 2>/dev/null >&2; exit 1; }
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
    command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" -eq 0 ] || fail "slurmd must run as root to start jobs"
mkdir -p "$dir"/munge "$dir"/state "$dir"/spool "$dir"/log
chmod 700 "$dir/munge"
[ -f "$dir/munge/munge.key" ] || mungekey -c -k "$dir/munge/munge.key" || fail "mungekey could not make a key"
# -f: munged checks its folders' owners and modes as for /etc/munge; here they are ours.
munged -f --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" || fail "munged did not start"
# Ports of our own, away from a cluster this machine may belong to.
port=$((20000 + RANDOM % 20000))
cat >"$SLURM_CONF" <<CONF
ClusterName=scanlabs
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N localhost || fail "slurmd did not start"
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && { echo "export SLURM_CONF=$SLURM_CONF"; exit 0; }
    sleep 0.5
done
fail "the node did not come up within 30 s"
