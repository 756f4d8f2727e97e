// Legacy: a framework whose names are bitcode-hidden, as the dSYMs App Store Connect
// returned for bitcode builds carry them (`__hidden#<n>_`) until BCSymbolMaps restore them.
// Assembled with `llvm-mc-19 -g` (DWARF for the assembly: one compile unit) and linked
// with ld64.lld-19, so the binary and its dSYM are real linker and dsymutil output.
    .section __TEXT,__text,regular,pure_instructions
    .globl "___hidden#0_"
    .p2align 2
"___hidden#0_":
    add w0, w0, #1
    ret
    .globl "___hidden#1_"
    .p2align 2
"___hidden#1_":
    mov x29, x30
    bl "___hidden#0_"
    mov x30, x29
    ret
