/*
 * The only C header the package sees. It finds libdwarf wherever the
 * platform put it: Debian 12 ships 20210528 as <libdwarf/libdwarf.h>
 * (no pkg-config file); libdwarf 0.x / 2.x (Homebrew, newer distributions)
 * install under <libdwarf-0/> or <libdwarf-2/> and changed some signatures.
 * Calls whose signatures differ between those layouts get a
 * `symbolicate_`-prefixed static inline wrapper here so Swift sees one API.
 */
#ifndef SYMBOLICATE_CLIBDWARF_SHIM_H
#define SYMBOLICATE_CLIBDWARF_SHIM_H

#if __has_include(<libdwarf/libdwarf.h>)
#  include <libdwarf/libdwarf.h>
#  include <libdwarf/dwarf.h>
#  define SYMBOLICATE_LIBDWARF_LEGACY 1
#elif __has_include(<libdwarf-2/libdwarf.h>)
#  include <libdwarf-2/libdwarf.h>
#  include <libdwarf-2/dwarf.h>
#  define SYMBOLICATE_LIBDWARF_LEGACY 0
#elif __has_include(<libdwarf-0/libdwarf.h>)
#  include <libdwarf-0/libdwarf.h>
#  include <libdwarf-0/dwarf.h>
#  define SYMBOLICATE_LIBDWARF_LEGACY 0
#elif __has_include(<libdwarf.h>)
#  include <libdwarf.h>
#  include <dwarf.h>
#  define SYMBOLICATE_LIBDWARF_LEGACY 0
#else
#  error "libdwarf headers not found: install libdwarf-dev (Debian) or libdwarf (Homebrew)"
#endif

#endif
