# The lab this question grades: the entrypoint reads it from data.json's
# params.lab. A question per lab: copy this folder, change LAB, the title and uuid.
LAB = "02"


def generate(data):
    data["params"]["lab"] = LAB
