/*
 * zlib for SymbolicateELF/Zlib.swift, the only Swift file that uses it: SHF_COMPRESSED
 * (ELFCOMPRESS_ZLIB) and GNU .zdebug sections in the pure-Swift ELF reader.
 * Debian: zlib1g-dev; macOS: the SDK's <zlib.h> and libz.tbd.
 */
#ifndef SYMBOLICATE_CSYSTEMZLIB_SHIM_H
#define SYMBOLICATE_CSYSTEMZLIB_SHIM_H

#include <zlib.h>

#endif
