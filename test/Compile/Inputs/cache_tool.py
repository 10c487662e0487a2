"""Helpers for executable-cache.test that lit's internal shell lacks.

  cache_tool.py count DIR              entries and temporaries in DIR
  cache_tool.py damage DIR flip|truncate
                                       flips the last byte of, or cuts in
                                       half, the only entry in DIR
  cache_tool.py bound-flags OUT FILE K writes a flag file bounding the cache
                                       to K times FILE's size
  cache_tool.py concurrent N CMD...    starts N copies of CMD at once ({i} in
                                       an argument becomes the copy's index)
                                       and prints each exit status
  cache_tool.py flip-build-id IN OUT   copies the ELF program IN to OUT with
                                       one byte of its GNU build id flipped:
                                       the same code as another build
"""
import os
import re
import struct
import subprocess
import sys

ENTRY = re.compile(r"^[0-9a-f]{64}\.tessera$")


def entries(folder):
    return sorted(n for n in os.listdir(folder) if ENTRY.match(n))


def flip_build_id(source, target):
    """Copies an ELF64 little-endian program with the last byte of its
    .note.gnu.build-id descriptor flipped; the note is in a loaded
    segment, so the copy reports the new id to dl_iterate_phdr."""
    data = bytearray(open(source, "rb").read())
    if data[:6] != b"\x7fELF\x02\x01":
        sys.exit("%s: not a 64-bit little-endian ELF file" % source)
    (section_table,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)

    def section(i):
        name, _, _, _, offset, size = struct.unpack_from(
            "<IIQQQQ", data, section_table + i * entry_size)
        return name, offset, size

    _, names, _ = section(names_index)
    for i in range(count):
        name, offset, _ = section(i)
        end = data.index(b"\0", names + name)
        if data[names + name:end] != b".note.gnu.build-id":
            continue
        name_size, desc_size, _ = struct.unpack_from("<III", data, offset)
        desc = offset + 12 + (name_size + 3) // 4 * 4
        data[desc + desc_size - 1] ^= 0xFF
        with open(target, "wb") as out:
            out.write(data)
        os.chmod(target, 0o755)
        return
    sys.exit("%s has no .note.gnu.build-id section" % source)


def main(argv):
    command = argv[1]
    if command == "count":
        names = os.listdir(argv[2])
        temporaries = [n for n in names if ".tmp-" in n]
        print("entries=%d temporaries=%d" % (len(entries(argv[2])),
                                             len(temporaries)))
    elif command == "damage":
        found = entries(argv[2])
        if len(found) != 1:
            sys.exit("expected one entry, found %d" % len(found))
        path = os.path.join(argv[2], found[0])
        data = bytearray(open(path, "rb").read())
        if argv[3] == "flip":
            data[-1] ^= 0x01
        else:
            data = data[:len(data) // 2]
        open(path, "wb").write(data)
    elif command == "bound-flags":
        size = os.path.getsize(argv[3])
        with open(argv[2], "w") as out:
            out.write("--executable_cache_max_bytes=%d\n" %
                      int(size * float(argv[4])))
    elif command == "concurrent":
        count = int(argv[2])
        processes = [
            subprocess.Popen([a.replace("{i}", str(i)) for a in argv[3:]],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
            for i in range(count)
        ]
        for i, process in enumerate(processes):
            _, err = process.communicate()
            print("process %d: exit %d" % (i, process.returncode))
            if process.returncode:
                sys.stderr.write(err.decode())
    elif command == "flip-build-id":
        flip_build_id(argv[2], argv[3])
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main(sys.argv)
