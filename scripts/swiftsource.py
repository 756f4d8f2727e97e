"""What the catalogue generator (generate-catalogs.py) uses: Swift string
literals, the repository's formatting, and writing a generated file whole or not at all."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SwiftSourceError(Exception):
    pass


def swift_string(text):
    """A Swift string literal for `text`: quotes, backslashes and control characters escaped."""
    out = []
    for character in text:
        if character == "\\":
            out.append("\\\\")
        elif character == '"':
            out.append('\\"')
        elif character == "\n":
            out.append("\\n")
        elif character == "\t":
            out.append("\\t")
        elif ord(character) < 0x20:
            out.append("\\u{%x}" % ord(character))
        else:
            out.append(character)
    return '"' + "".join(out) + '"'


def formatted(name, text):
    """The text as `swift format` lays it out with the repo's .swift-format (what CI's format check wants)."""
    try:
        result = subprocess.run(
            ["swift", "format", "format", "--configuration", os.path.join(ROOT, ".swift-format"), "--assume-filename", name],
            input=text, capture_output=True, text=True, check=False)
    except OSError as error:
        raise SwiftSourceError(f"swift format: {error}")
    if result.returncode != 0:
        raise SwiftSourceError(f"swift format failed on {name}: {result.stderr.strip()}")
    return result.stdout


def write_whole(path, text):
    """Writes beside the file, then renames over it: an interrupted run leaves the old file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
