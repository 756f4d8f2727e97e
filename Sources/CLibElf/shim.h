/*
 * libelf (elfutils) for SymbolicateELF/LibElf.swift, the only Swift file that uses it.
 * Debian: libelf-dev. libelf 0.188 (Debian 12) decompresses SHF_COMPRESSED sections with
 * zlib only (ELFCOMPRESS_ZSTD needs elfutils 0.189+).
 */
#ifndef SYMBOLICATE_CLIBELF_SHIM_H
#define SYMBOLICATE_CLIBELF_SHIM_H

#include <libelf.h>
#include <gelf.h>
#include <elf.h>

#endif
