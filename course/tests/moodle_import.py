#!/usr/bin/env python3
"""Checks moodle.csv files as Moodle's CSV grade import reads them.

usage: moodle_import.py MOODLE.csv...   prints `FILE: ok` or each problem; exits 1 on any
       moodle_import.py --self-test     checks that broken examples are refused

A replica of moodle/moodle's import, read at commit 162f42f0 of
grade/import/csv/classes/load_data.php and lib/csvlib.class.php
(csv_import_reader::load_csv_content), with the form's defaults (encoding
UTF-8, separator comma) and the mapping course/lms/README.md tells the
instructor to make (Username to a user field, the grade column to a grade
item, NAME (feedback) to its feedback):
- the text is converted from UTF-8, a byte-order mark removed, CR LF and CR
  made LF and the whole trimmed; rows are read by PHP's fgetcsv (enclosure
  ", escape \\: a \\" inside a quoted field does not close it) and an empty
  line is skipped; no header is "csvemptyfile", a row whose field count is
  not the header's is "csvweirdcolumns", either stopping the import;
- map_user_data_with_value: an empty identifier (PHP's empty(): "" and "0")
  leaves the row's user unset, so its grade goes to the previous row's user;
- update_grade_item: a grade is "" or "-" (no grade) or what unformat_float
  reads strictly (a number, spaces removed), else "badgrade"; a new grade
  item's grade above gradepointmax (100 unless unlimitedgrades) is
  "gradevaluetoobig" (insert_grade_record). Both stop the import.
"""
import re

import schema_cli  # beside this file (gradescope_schema.py shares it)


def php_rows(text):
    """fgetcsv's rows of `text` (delimiter ",", enclosure ", escape \\), empty lines skipped."""
    rows, row, field, i, quoted, was_quoted = [], [], "", 0, False, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":  # PHP's escape: it and the next character kept as they are; a quote there does not close
                field += text[i:i + 2]
                i += 2
                continue
            if c == '"' and text[i + 1:i + 2] == '"':
                field += '"'
                i += 2
                continue
            if c == '"':
                quoted = False
            else:
                field += c
        elif c == '"' and not field and not was_quoted:
            quoted = was_quoted = True
        elif c == ",":
            row.append(field)
            field, was_quoted = "", False
        elif c == "\n":
            row.append(field)
            if row != [""]:
                rows.append(row)
            row, field, was_quoted = [], "", False
        else:
            field += c
        i += 1
    if quoted:
        return rows, "a quoted field is not closed before the end of the file (PHP's escape \\\" kept it open?)"
    row.append(field)
    if row != [""]:
        rows.append(row)
    return rows, None


NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")  # what PHP's is_numeric takes, spaces removed


def problems_of(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"not UTF-8, the import's default encoding: {e}"]
    text = text.removeprefix("\ufeff")
    text = re.sub(r"\r\n?", "\n", text).strip(" \t\n\r\0\x0b")
    rows, error = php_rows(text)
    if error:
        return [error]
    if not rows:
        return ["csvemptyfile: no header"]
    header = [h.strip() for h in rows[0]]
    found = [f"row {n + 1}: {len(r)} fields, the header {len(header)}: csvweirdcolumns stops the import"
             for n, r in enumerate(rows) if len(r) != len(header)]
    if found:
        return found
    if "Username" not in header:
        return ["no Username column to map from"]
    grades = [h for h in header if h + " (feedback)" in header]
    if len(grades) != 1:
        return [f"not one grade column with its NAME (feedback) column: {header}"]
    user, grade = header.index("Username"), header.index(grades[0])
    for n, r in enumerate(rows[1:], 2):
        if r[user] in ("", "0"):
            found.append(f"row {n}: identifier {r[user]!r} is empty() in PHP: the grade goes to the row before's user")
        value = r[grade].strip()
        if value in ("", "-"):
            continue
        if not NUMBER.fullmatch(value.replace(" ", "")):
            found.append(f"row {n}: grade {value!r} is no number: badgrade stops the import")
        elif float(value.replace(" ", "")) > 100:
            found.append(f"row {n}: grade {value} is above gradepointmax 100: gradevaluetoobig stops the import")
    return found


def check_text(text):
    return problems_of(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)


GOOD = 'Username,Full name,Lab 2,Lab 2 (feedback)\r\njdoe,"Doe, Jane",53.7,"a ""quoted"" note"\r\ncc,"Chen, Carol",0,no submission\r\n'


def broken_examples():
    swap = lambda old, new: GOOD.replace(old, new, 1)
    return [
        ("an empty file", ""),
        ("a row with a field too many", swap("53.7,", "53.7,extra,")),
        ("a backslash before a quote in a quoted field (PHP's escape)", swap('"a ""quoted"" note"', '"in C:\\"')),
        ("a grade that is no number", swap("53.7", "53.7%")),
        ("a grade above 100", swap("53.7", "100.5")),
        ("an identifier PHP reads as empty", swap("jdoe,", "0,")),
        ("no Username column", swap("Username,", "Login,")),
        ("no feedback column beside the grade", swap("Lab 2 (feedback)", "Notes")),
    ]


if __name__ == "__main__":
    schema_cli.run(__doc__, check_text,
                   [("the valid example", GOOD),
                    ("a byte-order mark, LF line ends, no grade", "\ufeff" + GOOD.replace("\r\n", "\n").replace("53.7", "-"))],
                   broken_examples())
