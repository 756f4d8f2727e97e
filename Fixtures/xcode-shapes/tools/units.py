#!/usr/bin/env python3
"""Writes arm64 assembly units whose DWARF has shapes no compiler on this machine emits.

  units.py OUTPUT_DIR   -> OUTPUT_DIR/<Unit>.s, one compile unit per file

Each unit is real code (`__TEXT,__text`, `.loc` rows that llvm-mc-19 turns into the line
table) plus a hand-described DIE tree in `__DWARF,__debug_info`/`__debug_abbrev`/
`__debug_str`, written the way clang's own `-S` output writes them, so `llvm-mc-19`,
`ld64.lld-19` and `dsymutil-19` treat them like compiler output.

Shapes (see Fixtures/README.md for the producers they imitate):
- Swift 5 (Xcode 13 era, DWARF 4): method definitions (DIEs with low_pc) inside their type,
  `compile_unit > module > class/structure/enumeration_type > subprogram >
  inlined_subroutine`, with the inlined callee's abstract DIE in its own type:
  an @objc thunk inlining a static method, an @objc thunk inlining viewDidLoad inlining a
  static method (three levels), a protocol witness inlining a getter, an enum getter,
  a method of a struct nested in a class, and a closure nested in a method.
- An extern "C" function whose definition sits in a C++ namespace DIE (Breakpad's shape).
- Other languages: a GNU C nested function inside a lexical block, a function defined
  inside an inlined call's subtree, a C++ method defined in a union, a method in an
  interface type, and a Fortran module procedure (gfortran's shape).
Only the Python 3 standard library is used; output is deterministic.
"""
import os
import sys

TAG = {
    "compile_unit": 0x11, "module": 0x1E, "class_type": 0x02, "structure_type": 0x13,
    "union_type": 0x17, "enumeration_type": 0x04, "interface_type": 0x38,
    "subprogram": 0x2E, "inlined_subroutine": 0x1D, "lexical_block": 0x0B,
    "namespace": 0x39, "base_type": 0x24,
}
AT = {
    "name": 0x03, "producer": 0x25, "language": 0x13, "stmt_list": 0x10, "comp_dir": 0x1B,
    "low_pc": 0x11, "high_pc": 0x12, "linkage_name": 0x6E, "decl_file": 0x3A, "decl_line": 0x3B,
    "external": 0x3F, "inline": 0x20, "abstract_origin": 0x31, "call_file": 0x58,
    "call_line": 0x59, "call_column": 0x57, "byte_size": 0x0B, "declaration": 0x3C,
    "artificial": 0x34, "encoding": 0x3E, "frame_base": 0x40,
}
FORM = {"addr": 0x01, "data1": 0x0B, "data2": 0x05, "data4": 0x06, "strp": 0x0E,
        "ref4": 0x13, "flag_present": 0x19, "sec_offset": 0x17, "exprloc": 0x18}

# Forms by attribute (one spelling per attribute keeps the abbreviation table small).
DEFAULT_FORM = {
    "name": "strp", "producer": "strp", "language": "data2", "stmt_list": "sec_offset",
    "comp_dir": "strp", "low_pc": "addr", "high_pc": "data4", "linkage_name": "strp",
    "decl_file": "data1", "decl_line": "data1", "external": "flag_present", "inline": "data1",
    "abstract_origin": "ref4", "call_file": "data1", "call_line": "data1", "call_column": "data1",
    "byte_size": "data1", "declaration": "flag_present", "artificial": "flag_present",
    "encoding": "data1", "frame_base": "exprloc",
}

LANG = {"swift": 0x1E, "c99": 0x0C, "cpp14": 0x21, "fortran90": 0x08, "java": 0x0B}


class Die:
    def __init__(self, tag, attrs=(), children=(), label=None):
        self.tag = tag
        self.attrs = list(attrs)  # [(name, value)]
        self.children = list(children)
        self.label = label


def D(tag, *children, label=None, **attrs):
    return Die(tag, attrs.items(), children, label)


class Code:
    """One function's instructions. `parts` items: ("loc", file, line, col), an
    instruction string, or ("label", name) for inlined-range boundaries."""
    def __init__(self, symbol, parts):
        self.symbol = symbol
        self.parts = parts
        self.begin = None
        self.end = None


class Unit:
    def __init__(self, name, language, comp_dir, files, functions, tree):
        self.name = name
        self.language = language
        self.comp_dir = comp_dir
        self.files = files  # [(dir, name)], numbered from 1
        self.functions = functions
        self.tree = tree  # children of the compile unit DIE


def asm_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(unit):
    out = ["\t.build_version ios, 15, 0", "\t.section\t__TEXT,__text,regular,pure_instructions"]
    for number, (directory, name) in enumerate(unit.files, 1):
        out.append(f"\t.file\t{number} {asm_string(directory)} {asm_string(name)}")
    for index, function in enumerate(unit.functions):
        function.begin, function.end = f"Lfunc_begin{index}", f"Lfunc_end{index}"
        out += [f"\t.globl\t{asm_string('_' + function.symbol)}", "\t.p2align\t2",
                f"{asm_string('_' + function.symbol)}:", f"{function.begin}:"]
        for part in function.parts:
            if isinstance(part, str):
                out.append("\t" + part)
            elif part[0] == "loc":
                out.append(f"\t.loc\t{part[1]} {part[2]} {part[3]}")
            else:
                out.append(f"{part[1]}:")
        out.append(f"{function.end}:")
    out.append("Ltext_end:")

    strings = {}
    def string(text):
        if text not in strings:
            strings[text] = sum(len(s.encode()) + 1 for s in strings)
        return strings[text]

    abbrevs = {}
    def abbrev(die):
        key = (die.tag, bool(die.children), tuple(name for name, _ in die.attrs))
        if key not in abbrevs:
            abbrevs[key] = len(abbrevs) + 1
        return abbrevs[key]

    root = D("compile_unit", *unit.tree, producer="Apple Swift version 5.5.2 (imitated by Fixtures/xcode-shapes/tools/units.py)"
             if unit.language == "swift" else "imitated by Fixtures/xcode-shapes/tools/units.py",
             language=LANG[unit.language], name=unit.name, stmt_list="Lline_table_start0",
             comp_dir=unit.comp_dir, low_pc=unit.functions[0].begin, high_pc=("Ltext_end", unit.functions[0].begin))
    info = []
    counter = [0]
    def lset(expression):
        counter[0] += 1
        name = f"Lset{counter[0]}"
        info.append(f"{name} = {expression}")
        return name

    def write(die):
        if die.label:
            info.append(f"{die.label}:")
        info.append(f"\t.byte\t{abbrev(die)}\t; {die.tag}")
        for name, value in die.attrs:
            # form -> (directive, operand); flag_present has no bytes.
            directive = {
                "strp": lambda: (".long", string(value)),
                "addr": lambda: (".quad", value),
                "data4": lambda: (".long", lset(value[0] + "-" + value[1])),  # high_pc: (end, begin)
                "ref4": lambda: (".long", lset(value + "-Lcu_begin0")),
                "sec_offset": lambda: (".long", lset(value + "-Lsection_line")),
                "data1": lambda: (".byte", value),
                "data2": lambda: (".short", value),
                "exprloc": lambda: (".byte", f"1\n\t.byte\t{value}"),  # one-byte expression
            }.get(DEFAULT_FORM[name])
            if directive:
                op, operand = directive()
                info.append(f"\t{op}\t{operand}\t; {name}")
        if die.children:
            for child in die.children:
                write(child)
            info.append("\t.byte\t0\t; end of children")

    write(root)
    out += ["\t.section\t__DWARF,__debug_abbrev,regular,debug", "Lsection_abbrev:"]
    for (tag, has_children, names), code in abbrevs.items():
        out += [f"\t.byte\t{code}", f"\t.byte\t{TAG[tag]}\t; {tag}", f"\t.byte\t{1 if has_children else 0}"]
        for name in names:
            out += [f"\t.uleb128\t{AT[name]}\t; {name}", f"\t.uleb128\t{FORM[DEFAULT_FORM[name]]}"]
        out += ["\t.byte\t0", "\t.byte\t0"]
    out.append("\t.byte\t0")
    out += ["\t.section\t__DWARF,__debug_info,regular,debug", "Lsection_info:", "Lcu_begin0:",
            "Lset0 = Ldebug_info_end0-Ldebug_info_start0", "\t.long\tLset0", "Ldebug_info_start0:",
            "\t.short\t4", "Lsetabbrev = Lsection_abbrev-Lsection_abbrev", "\t.long\tLsetabbrev", "\t.byte\t8"]
    out += info
    out.append("Ldebug_info_end0:")
    out += ["\t.section\t__DWARF,__debug_str,regular,debug", "Linfo_string:"]
    out += [f"\t.asciz\t{asm_string(text)}" for text in strings]
    out += [".subsections_via_symbols", "\t.section\t__DWARF,__debug_line,regular,debug",
            "Lsection_line:", "Lline_table_start0:"]
    return "\n".join(out) + "\n"


class Labels:
    """Function k of a unit is Lfunc_begin{k}..Lfunc_end{k} (assigned by emit in order)."""
    def __init__(self, index):
        self.begin = f"Lfunc_begin{index}"
        self.end = f"Lfunc_end{index}"


def pcs(index):
    labels = Labels(index)
    return {"low_pc": labels.begin, "high_pc": (labels.end, labels.begin)}


def rng(begin, end):
    return {"low_pc": begin, "high_pc": (end, begin)}


SRC = "/src/XcodeShapes"
GEN = 2  # file number of <compiler-generated> in the Swift units
CRASH_CLASS = 3  # CrashClass.swift in the view controller unit


def thunk_code(symbol, inlined, call_line, body, frame_pointer=True):
    """A compiler-generated thunk (@objc entry point, protocol witness): prologue and
    epilogue at `<compiler-generated>`, `body` being the inlined method between the labels
    `<inlined>_begin` and `<inlined>_end`."""
    prologue = ["stp x29, x30, [sp, #-16]!"] + (["mov x29, sp"] if frame_pointer else [])
    return Code(symbol, [("loc", GEN, 0, 0), *prologue, ("label", inlined + "_begin"), *body,
                         ("label", inlined + "_end"), ("loc", GEN, call_line, 0), "ldp x29, x30, [sp], #16", "ret"])


def crashing_class():
    """@objc thunk of a static method (inlined), a struct nested in the class, an enum getter."""
    thunk = thunk_code("$s5MyApp13CrashingClassC5crashs5NeverOyFZTo", "Lcrash_inl", 11, [
        ("loc", 1, 12, 9), "mov w0, #12", ("loc", 1, 13, 9), "brk #0x1",
    ])
    describe = Code("$s5MyApp13CrashingClassC6ConfigV8describeSiyF", [
        ("loc", 1, 18, 0), "lsl x0, x0, #1", ("loc", 1, 18, 44), "ret",
    ])
    path = Code("$s5MyApp5RouteO4pathSivg", [
        ("loc", 1, 24, 0), "cmp w0, #0", ("loc", 1, 24, 27), "cset w0, ne", ("loc", 1, 24, 45), "add w0, w0, #1", "ret",
    ])
    tree = [D(
        "module",
        D("class_type",
          D("subprogram", label="Lcrash_abstract", linkage_name="$s5MyApp13CrashingClassC5crashs5NeverOyFZ",
            name="crash", decl_file=1, decl_line=11, external=True, inline=1),
          D("subprogram",
            D("inlined_subroutine", abstract_origin="Lcrash_abstract", **rng("Lcrash_inl_begin", "Lcrash_inl_end"),
              call_file=GEN, call_line=11),
            **pcs(0), frame_base=0x6D, linkage_name=thunk.symbol, name="crash", decl_file=GEN, decl_line=11,
            artificial=True, external=True),
          D("structure_type",
            D("subprogram", **pcs(1), frame_base=0x6F, linkage_name=describe.symbol, name="describe",
              decl_file=1, decl_line=18, external=True),
            name="Config", byte_size=8, decl_file=1, decl_line=16),
          name="CrashingClass", byte_size=8, decl_file=1, decl_line=10),
        D("enumeration_type",
          D("subprogram", **pcs(2), frame_base=0x6F, linkage_name=path.symbol, name="path.get",
            decl_file=1, decl_line=24, external=True),
          name="Route", byte_size=1, decl_file=1, decl_line=22),
        name="MyApp")]
    return Unit("CrashingClass.swift", "swift", SRC, [(SRC, "CrashingClass.swift"), ("", "<compiler-generated>")],
                [thunk, describe, path], tree)


def view_controller():
    """@objc viewDidLoad thunk inlining viewDidLoad inlining a static method of another class
    (three levels), the out-of-line viewDidLoad, and a closure nested in it."""
    thunk = thunk_code("$s5MyApp14ViewControllerC11viewDidLoadyyFTo", "Lvdl_inl", 28, [
        ("loc", 1, 30, 9), "mov w0, #30",
        ("label", "Lplease_inl_begin"),
        ("loc", CRASH_CLASS, 5, 13), "mov w1, #5", ("loc", CRASH_CLASS, 6, 13), "brk #0x1",
        ("label", "Lplease_inl_end"),
        ("loc", 1, 31, 9), "nop",
    ])
    direct = Code("$s5MyApp14ViewControllerC11viewDidLoadyyF", [
        ("loc", 1, 29, 0), "stp x29, x30, [sp, #-16]!",
        ("label", "Lplease2_inl_begin"),
        ("loc", CRASH_CLASS, 5, 13), "mov w1, #5", ("loc", CRASH_CLASS, 6, 13), "brk #0x1",
        ("label", "Lplease2_inl_end"),
        ("loc", 1, 32, 5), "ldp x29, x30, [sp], #16", "ret",
    ])
    closure = Code("$s5MyApp14ViewControllerC11viewDidLoadyyFyycfU_", [
        ("loc", 1, 31, 20), "mov w0, #31", ("loc", 1, 31, 30), "ret",
    ])
    please_abstract = D("subprogram", label="Lplease_abstract", linkage_name="$s5MyApp10CrashClassC06pleaseC0yyFZ",
                        name="pleaseCrash", decl_file=CRASH_CLASS, decl_line=4, external=True, inline=1)
    tree = [D(
        "module",
        D("class_type", please_abstract, name="CrashClass", byte_size=8, decl_file=CRASH_CLASS, decl_line=3),
        D("class_type",
          D("subprogram", label="Lvdl_abstract", linkage_name=direct.symbol, name="viewDidLoad",
            decl_file=1, decl_line=29, external=True, inline=1),
          D("subprogram",
            D("inlined_subroutine",
              D("inlined_subroutine", abstract_origin="Lplease_abstract", **rng("Lplease_inl_begin", "Lplease_inl_end"),
                call_file=1, call_line=30, call_column=20),
              abstract_origin="Lvdl_abstract", **rng("Lvdl_inl_begin", "Lvdl_inl_end"), call_file=GEN, call_line=28),
            **pcs(0), frame_base=0x6D, linkage_name=thunk.symbol, name="viewDidLoad", decl_file=GEN, decl_line=28,
            artificial=True, external=True),
          D("subprogram",
            D("lexical_block",
              D("inlined_subroutine", abstract_origin="Lplease_abstract", **rng("Lplease2_inl_begin", "Lplease2_inl_end"),
                call_file=1, call_line=30, call_column=20),
              # A closure's definition nested in the method that declares it.
              D("subprogram", **pcs(2), frame_base=0x6F, linkage_name=closure.symbol, name="closure #1",
                decl_file=1, decl_line=31),
              **pcs(1)),
            **pcs(1), frame_base=0x6D, linkage_name=direct.symbol, name="viewDidLoad", decl_file=1, decl_line=29,
            external=True),
          name="ViewController", byte_size=8, decl_file=1, decl_line=27),
        name="MyApp")]
    return Unit("ViewController.swift", "swift", SRC,
                [(SRC, "ViewController.swift"), ("", "<compiler-generated>"), (SRC, "CrashClass.swift")],
                [thunk, direct, closure], tree)


def content_app():
    """A protocol witness inlining the getter it forwards to."""
    witness = thunk_code("$s5MyApp07ContentB0VAA6ScreenA2aDP5titleSivgTW", "Ltitle_inl", 7, [
        ("loc", 1, 8, 44), "mov w0, #42", ("loc", 1, 8, 48), "udf #0",
    ], frame_pointer=False)
    getter = Code("$s5MyApp07ContentB0V5titleSivg", [
        ("loc", 1, 8, 0), "mov w0, #42", ("loc", 1, 8, 48), "ret",
    ])
    tree = [D(
        "module",
        D("structure_type",
          D("subprogram", label="Ltitle_abstract", linkage_name=getter.symbol, name="title.get",
            decl_file=1, decl_line=8, external=True, inline=1),
          D("subprogram",
            D("inlined_subroutine", abstract_origin="Ltitle_abstract", **rng("Ltitle_inl_begin", "Ltitle_inl_end"),
              call_file=GEN, call_line=7),
            **pcs(0), frame_base=0x6F, linkage_name=witness.symbol, name="title.get", decl_file=GEN, decl_line=7,
            artificial=True),
          D("subprogram", **pcs(1), frame_base=0x6F, linkage_name=getter.symbol, name="title.get",
            decl_file=1, decl_line=8, external=True),
          name="ContentApp", byte_size=0, decl_file=1, decl_line=7),
        name="MyApp")]
    return Unit("ContentApp.swift", "swift", SRC, [(SRC, "ContentApp.swift"), ("", "<compiler-generated>")],
                [witness, getter], tree)


def single_file_unit(name, language, functions, tree):
    return Unit(name, language, SRC, [(SRC, name)], functions, tree)


def one_inlined_call(symbol, inlined, entry, call, exit):
    """Entry instruction, one inlined instruction between `<inlined>_begin`/`_end`, `ret`;
    each given with its (line, column) in file 1."""
    (entry_line, entry_col), entry_ins = entry
    (call_line, call_col), call_ins = call
    return Code(symbol, [("loc", 1, entry_line, entry_col), entry_ins, ("label", inlined + "_begin"),
                         ("loc", 1, call_line, call_col), call_ins, ("label", inlined + "_end"),
                         ("loc", 1, exit[0], exit[1]), "ret"])


def other_languages():
    """Nestings in other languages, each a unit of its own (see the module docstring)."""
    units = []
    # GNU C: a nested function defined inside a lexical block of its parent, and a function
    # whose DIE sits inside an inlined call's subtree.
    outer = Code("c_outer_with_nested", [
        ("loc", 1, 3, 0), "mov w8, #3",
        ("label", "Lc_block_begin"), ("loc", 1, 5, 9), "add w0, w0, w8",
        ("label", "Lc_inl_begin"), ("loc", 1, 12, 5), "mul w0, w0, w8", ("label", "Lc_inl_end"),
        ("loc", 1, 7, 5), "nop", ("label", "Lc_block_end"),
        ("loc", 1, 8, 1), "ret",
    ])
    nested = Code("c_nested_helper.1", [("loc", 1, 4, 0), "add w0, w0, #1", ("loc", 1, 4, 30), "ret"])
    in_inline = Code("c_in_inline_helper.2", [("loc", 1, 13, 0), "sub w0, w0, #1", ("loc", 1, 13, 30), "ret"])
    units.append(single_file_unit("nested.c", "c99", [outer, nested, in_inline], [
        D("subprogram", label="Lc_square_abstract", name="c_square", decl_file=1, decl_line=11, inline=1),
        D("subprogram",
          D("lexical_block",
            D("subprogram", **pcs(1), frame_base=0x6F, name="c_nested_helper", decl_file=1, decl_line=4),
            D("inlined_subroutine",
              D("subprogram", **pcs(2), frame_base=0x6F, name="c_in_inline_helper", decl_file=1, decl_line=13),
              abstract_origin="Lc_square_abstract", **rng("Lc_inl_begin", "Lc_inl_end"), call_file=1, call_line=6),
            **rng("Lc_block_begin", "Lc_block_end")),
          **pcs(0), frame_base=0x6F, name="c_outer_with_nested", decl_file=1, decl_line=3, external=True),
    ]))
    # C++ method defined inside a union, inlining another member.
    get = one_inlined_call("_ZN5Value3getEv", "Lu_inl", ((3, 0), "ldr w8, [x0]"), ((4, 30), "add w0, w8, #2"), (3, 40))
    units.append(single_file_unit("union.cpp", "cpp14", [get], [
        D("union_type",
          D("subprogram", label="Lu_raw_abstract", linkage_name="_ZN5Value3rawEv", name="raw", decl_file=1,
            decl_line=4, inline=1),
          D("subprogram",
            D("inlined_subroutine", abstract_origin="Lu_raw_abstract", **rng("Lu_inl_begin", "Lu_inl_end"),
              call_file=1, call_line=3, call_column=33),
            **pcs(0), frame_base=0x6F, linkage_name=get.symbol, name="get", decl_file=1, decl_line=3, external=True),
          name="Value", byte_size=4, decl_file=1, decl_line=1)]))
    # A default method of an interface type, named by DW_AT_name alone.
    render = Code("shapes_interface_render", [("loc", 1, 2, 0), "mov w0, #2", ("loc", 1, 2, 20), "ret"])
    units.append(single_file_unit("Renderer.java", "java", [render], [
        D("interface_type",
          D("subprogram", **pcs(0), frame_base=0x6F, name="render", decl_file=1, decl_line=2, external=True),
          name="Renderer", decl_file=1, decl_line=1)]))
    # An extern "C" function defined inside a C++ namespace DIE (as in Google Breakpad's
    # exception handler dSYMs), with an extern "C" helper of the same namespace inlined:
    # both are named by DW_AT_name alone, never namespace-qualified.
    exc = one_inlined_call("catch_exception_raise", "Lexc_inl", ((20, 0), "mov w8, #20"), ((12, 5), "eor w0, w0, w8"), (22, 3))
    units.append(single_file_unit("exc_handler.cc", "cpp14", [exc], [
        D("namespace",
          D("subprogram", label="Lexc_helper_abstract", name="breakpad_copy_exception_state", decl_file=1,
            decl_line=11, external=True, inline=1),
          D("subprogram",
            D("inlined_subroutine", abstract_origin="Lexc_helper_abstract", **rng("Lexc_inl_begin", "Lexc_inl_end"),
              call_file=1, call_line=21, call_column=10),
            **pcs(0), frame_base=0x6F, name="catch_exception_raise", decl_file=1, decl_line=19, external=True),
          name="google_breakpad")]))
    # gfortran: module procedures inside DW_TAG_module, linkage name __<module>_MOD_<name>.
    step = Code("__physics_MOD_step", [("loc", 1, 4, 0), "fadd d0, d0, d1", ("loc", 1, 5, 0), "ret"])
    units.append(single_file_unit("physics.f90", "fortran90", [step], [
        D("module",
          D("subprogram", **pcs(0), frame_base=0x6F, linkage_name=step.symbol, name="step", decl_file=1,
            decl_line=3, external=True),
          name="physics", decl_file=1, decl_line=1)]))
    return units


def swift_entry():
    """`shapes_swift_entry`, called from main.c, so the Swift-shaped units are reached."""
    entry = Code("shapes_swift_entry", [("loc", 1, 2, 0), "mov w0, #0", ("loc", 1, 3, 5), "ret"])
    return Unit("Entry.swift", "swift", SRC, [(SRC, "Entry.swift")], [entry], [
        D("module", D("subprogram", **pcs(0), frame_base=0x6F, linkage_name="shapes_swift_entry",
                      name="shapes_swift_entry", decl_file=1, decl_line=2, external=True), name="MyApp")])


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    units = [crashing_class(), view_controller(), content_app(), swift_entry()] + other_languages()
    for unit in units:
        stem = os.path.splitext(unit.name)[0].replace(".", "_")
        with open(os.path.join(out_dir, f"{stem}-{unit.language}.s"), "w") as f:
            f.write(emit(unit))


if __name__ == "__main__":
    main()
