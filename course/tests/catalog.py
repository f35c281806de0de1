"""The kit's labs as labs/catalog.txt lists them, for the course tests."""
import os


def labs(kit):
    """The labs' ids ("01-kogge-stone", ...), in the catalog's order."""
    ids = []
    for line in open(os.path.join(kit, "labs", "catalog.txt")):
        words = line.split("#")[0].split()
        if words:
            ids.append(words[0])
    return ids
