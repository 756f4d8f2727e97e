#!/usr/bin/env python3
"""Writes the seed archives of the `zip` fuzz target into Fuzz/seeds/zip/ (see Fuzz/README.md).

Run from anywhere: `python3 Fuzz/make-zip-seeds.py`. The output is deterministic (fixed dates,
fixed contents taken from Fixtures/), so rerunning it changes no file unless this script or
those fixtures changed. Each archive is small (the target's inputs are cut to 64 KiB) and shows
one shape the extractor has to handle: stored, deflated, folders, a dSYM bundle, data
descriptors, ZIP64 records, entries that must be skipped, a zip bomb, a lying size.
"""
import io
import os
import struct
import warnings
import zipfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "seeds", "zip")
DATE = (2024, 5, 17, 10, 30, 0)


def fixture(*parts):
    with open(os.path.join(ROOT, "Fixtures", *parts), "rb") as f:
        return f.read()


REPORT = fixture("reports", "macapp-x86_64.crash")
IPS = fixture("reports", "macapp-x86_64.ips")
DSYM = "CrashKit.framework.dSYM"
DWARF = fixture("dsyms", DSYM, "Contents", "Resources", "DWARF", "CrashKit")
PLIST = fixture("dsyms", DSYM, "Contents", "Info.plist")


def info(name, method=zipfile.ZIP_DEFLATED, mode=0o100644, system=3):
    entry = zipfile.ZipInfo(name, date_time=DATE)
    entry.compress_type = method
    entry.create_system = system
    entry.external_attr = mode << 16
    return entry


def folder(name):
    entry = info(name, zipfile.ZIP_STORED, 0o040755)
    entry.external_attr |= 0x10  # MS-DOS directory bit as well, as Info-ZIP writes it
    return entry


def write(name, entries, stream=None, comment=b""):
    buffer = stream or io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.comment = comment
        for entry, data in entries:
            archive.writestr(entry, data)
    data = buffer.getvalue()
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    return data


class Unseekable(io.RawIOBase):
    """A write-only stream: zipfile then sets flag bit 3 and writes data descriptors."""

    def __init__(self):
        self.chunks = []

    def writable(self):
        return True

    def write(self, b):
        self.chunks.append(bytes(b))
        return len(b)

    def getvalue(self):
        return b"".join(self.chunks)


def zip64(name, entries):
    """ZIP64 written by hand: zipfile only uses ZIP64 central records past 4 GiB. Every size
    and offset field is 0xFFFFFFFF with the values in a 0x0001 extra field, and the end record
    is a ZIP64 end record + locator before a classic one saying 0xFFFF / 0xFFFFFFFF."""
    body, central = b"", b""
    for entry_name, data, method in entries:
        raw = entry_name.encode()
        packed = zlib.compress(data)[2:-4] if method == 8 else data
        crc = zlib.crc32(data)
        offset = len(body)
        extra_local = struct.pack("<HHQQ", 1, 16, len(data), len(packed))
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, method, 0x5000, 0x58B1, crc,
                            0xFFFFFFFF, 0xFFFFFFFF, len(raw), len(extra_local)) + raw + extra_local + packed
        extra = struct.pack("<HHQQQ", 1, 24, len(data), len(packed), offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 45, 45, 0, method, 0x5000,
                               0x58B1, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(raw), len(extra), 0, 0, 0,
                               0o100644 << 16, 0xFFFFFFFF) + raw + extra
    start = len(body)
    end64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(entries), len(entries),
                        len(central), start)
    locator = struct.pack("<IIQI", 0x07064B50, 0, start + len(central), 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(body + central + end64 + locator + end)


def patch(data, name, local_field, central_field, update):
    """The same archive with a 4-byte (sizes) or 2-byte (flags) field of `name`'s local and
    central headers replaced by `update(old value)`."""
    data = bytearray(data)
    raw = name.encode()
    at = 0
    while True:
        at = data.find(raw, at)
        if at < 0:
            break
        for signature, header, field in ((b"PK\x03\x04", 30, local_field), (b"PK\x01\x02", 46, central_field)):
            start = at - header
            if start >= 0 and data[start:start + 4] == signature:
                form = "<I" if field in (18, 20, 22, 24) else "<H"
                old, = struct.unpack_from(form, data, start + field)
                struct.pack_into(form, data, start + field, update(old))
        at += 1
    return bytes(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    write("stored.zip", [(info("report.crash", zipfile.ZIP_STORED), REPORT[:1500]),
                         (info("notes.txt", zipfile.ZIP_STORED), b"stored entries\n")])
    write("deflated.zip", [(info("report.crash"), REPORT), (info("report.ips"), IPS)])
    write("folders.zip", [
        (folder("Reports/"), b""),
        (folder("Reports/2024/"), b""),
        (info("Reports/2024/first.crash"), REPORT[:2000]),
        (info("Reports/second.ips"), IPS[:2000]),
        (info("Reports/./third.txt", zipfile.ZIP_STORED), b"dot component\n"),
        # A DOS-made entry with a backslash separator, as old Windows tools write them.
        (info("Windows\\report.txt", zipfile.ZIP_STORED, 0, system=0), b"backslash\n"),
    ])
    write("dsym.zip", [
        (folder(f"{DSYM}/"), b""),
        (folder(f"{DSYM}/Contents/"), b""),
        (info(f"{DSYM}/Contents/Info.plist"), PLIST),
        (folder(f"{DSYM}/Contents/Resources/"), b""),
        (folder(f"{DSYM}/Contents/Resources/DWARF/"), b""),
        (info(f"{DSYM}/Contents/Resources/DWARF/CrashKit"), DWARF),
    ])
    write("reports.zip", [(info("crashes/macapp.crash"), REPORT), (info("crashes/macapp.ips"), IPS)],
          comment=b"archive comment before which the end record is searched")
    stream = Unseekable()
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr(info("streamed/report.crash"), REPORT[:3000])
        archive.writestr(info("streamed/stored.txt", zipfile.ZIP_STORED), b"data descriptor after stored data\n")
    with open(os.path.join(OUT, "data-descriptor.zip"), "wb") as f:
        f.write(stream.getvalue())
    zip64("zip64.zip", [("zip64/report.crash", REPORT[:2500], 8), ("zip64/stored.txt", b"ZIP64 stored\n", 0)])
    symlink = info("link-to-passwd", zipfile.ZIP_STORED, 0o120777)
    warnings.simplefilter("ignore")  # the duplicate names are on purpose
    skipped = write("skipped-entries.zip", [
        (info("good.txt", zipfile.ZIP_STORED), b"the one entry that unpacks\n"),
        (info("../escape.txt", zipfile.ZIP_STORED), b"slip\n"),
        (info("/absolute.txt", zipfile.ZIP_STORED), b"absolute\n"),
        (symlink, b"/etc/passwd"),
        (info("secret.txt", zipfile.ZIP_STORED), b"not really encrypted"),
        (info("dup.txt", zipfile.ZIP_STORED), b"first\n"),
        (info("dup.txt", zipfile.ZIP_STORED), b"second\n"),
        (info("DUP.txt", zipfile.ZIP_STORED), b"case duplicate\n"),
        (info("clash", zipfile.ZIP_STORED), b"file\n"),
        (info("clash/inner.txt", zipfile.ZIP_STORED), b"folder\n"),
        (info("bzip2.txt", zipfile.ZIP_BZIP2), b"bzip2 " * 40),
        (info("lzma.txt", zipfile.ZIP_LZMA), b"lzma " * 40),
    ])
    # zipfile cannot encrypt; the flag alone (bit 0, in both headers) is what the extractor
    # refuses an entry by, before reading its data.
    with open(os.path.join(OUT, "skipped-entries.zip"), "wb") as f:
        f.write(patch(skipped, "secret.txt", 6, 8, lambda flags: flags | 1))
    write("bomb.zip", [(info("zeros.bin"), bytes(2 << 20))])
    lying = write("lying-size.zip", [(info("big.txt"), b"A" * 300_000)])
    with open(os.path.join(OUT, "lying-size.zip"), "wb") as f:
        f.write(patch(lying, "big.txt", 22, 24, lambda size: 1000))
    with open(os.path.join(OUT, "empty.zip"), "wb") as f:
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0, 0, 0, 0, 0))


if __name__ == "__main__":
    main()
