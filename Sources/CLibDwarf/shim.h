/*
 * The only C header the package sees. It finds libdwarf wherever the
 * platform put it and gives Swift one API over the versions we support:
 *   - libdwarf 20210528 (Debian 12's libdwarf-dev): <libdwarf/libdwarf.h>, no pkg-config file;
 *   - libdwarf 0.x (0.11.1 is built and tested in CI, scripts/build-libdwarf.sh) and 2.x
 *     (Homebrew): <libdwarf-2/…>, <libdwarf-0/…> (autotools and meson installs, whose
 *     libdwarf.pc points -I there) or flat <libdwarf.h> (cmake installs).
 * A flat or versioned header comes before <libdwarf/libdwarf.h> so that a libdwarf named
 * with -I (or by its libdwarf.pc) wins over an older one in /usr/include. Which API applies
 * is decided by what the header declares (DW_LIBDWARF_VERSION_MAJOR exists from 0.x on),
 * never by where it was found.
 * Calls whose signatures differ between versions get a `symbolicate_`-prefixed static inline
 * wrapper here so the Swift code is the same for all of them (LibDwarf.swift calls only those).
 */
#ifndef SYMBOLICATE_CLIBDWARF_SHIM_H
#define SYMBOLICATE_CLIBDWARF_SHIM_H

#if __has_include(<libdwarf-2/libdwarf.h>)
#  include <libdwarf-2/libdwarf.h>
#  include <libdwarf-2/dwarf.h>
#elif __has_include(<libdwarf-0/libdwarf.h>)
#  include <libdwarf-0/libdwarf.h>
#  include <libdwarf-0/dwarf.h>
#elif __has_include(<libdwarf.h>)
#  include <libdwarf.h>
#  include <dwarf.h>
#elif __has_include(<libdwarf/libdwarf.h>)
#  include <libdwarf/libdwarf.h>
#  include <libdwarf/dwarf.h>
#else
#  error "libdwarf headers not found: install libdwarf-dev (Debian) or libdwarf (Homebrew)"
#endif

#include <string.h>

/* 20210528 and older (date-versioned) libdwarf declares no semantic version. */
#if defined(DW_LIBDWARF_VERSION_MAJOR)
#  define SYMBOLICATE_LIBDWARF_LEGACY 0
#else
#  define SYMBOLICATE_LIBDWARF_LEGACY 1
#endif

/* dwarf_next_cu_header_e (the unit DIE comes with the header) and dwarf_siblingof_c exist
   from libdwarf 0.9.0 on; 2.x still has the _d/_b pair but documents it as to be deprecated,
   so every libdwarf that has _e uses it. */
#if !SYMBOLICATE_LIBDWARF_LEGACY && \
    (DW_LIBDWARF_VERSION_MAJOR > 0 || DW_LIBDWARF_VERSION_MINOR >= 9)
#  define SYMBOLICATE_LIBDWARF_HAS_NEXT_CU_HEADER_E 1
#else
#  define SYMBOLICATE_LIBDWARF_HAS_NEXT_CU_HEADER_E 0
#endif

/* The version the headers were compiled from, NULL for the legacy API (whose headers name
   no version). Compared with dwarf_package_version(), the library actually loaded, by the
   tests: headers of one libdwarf with the library of another would misread every struct. */
static inline const char *symbolicate_libdwarf_header_version(void) {
#if SYMBOLICATE_LIBDWARF_LEGACY
    return 0;
#else
    return DW_LIBDWARF_VERSION;
#endif
}

/*
 * Serving sections ourselves (dwarf_object_init_b). The object-access structs were renamed
 * and reshaped in libdwarf 0.x (`_a` types, `om_`/`as_` fields, Dwarf_Unsigned indices, a
 * file-size method), so Swift fills this format-neutral description instead and the shim
 * builds whichever interface the installed libdwarf wants. libdwarf 0.12.0 appended two
 * members (om_load_section_a for mmap loading, om_finish); they stay NULL (the memset below),
 * so libdwarf loads through om_load_section, counts those bytes as not its own and never
 * frees them (read in 2.3.1's dwarf_init_finish.c and dwarf_alloc.c).
 */
typedef struct symbolicate_section_source {
    /* Passed back to the callbacks. */
    void *context;
    Dwarf_Unsigned section_count;
    Dwarf_Small pointer_size;
    /* Size of the underlying file; libdwarf 0.x checks section sizes against it. */
    Dwarf_Unsigned file_size;
    /* Name, type (0 for the placeholder at index 0, 1 otherwise) and size of a section. */
    int (*section_info)(void *context, Dwarf_Unsigned index, const char **name,
                        Dwarf_Unsigned *type, Dwarf_Unsigned *size, int *error);
    /* The bytes of a section (libdwarf only reads them). */
    int (*load_section)(void *context, Dwarf_Unsigned index, Dwarf_Small **data, int *error);
} symbolicate_section_source;

/* The source plus the interface built from it; must outlive the Dwarf_Debug. */
typedef struct symbolicate_object {
    symbolicate_section_source source;
#if SYMBOLICATE_LIBDWARF_LEGACY
    Dwarf_Obj_Access_Methods methods;
    Dwarf_Obj_Access_Interface interface;
#else
    Dwarf_Obj_Access_Methods_a methods;
    Dwarf_Obj_Access_Interface_a interface;
#endif
} symbolicate_object;

static inline Dwarf_Small symbolicate_object_pointer_size_(void *object) {
    return ((symbolicate_section_source *)object)->pointer_size;
}
static inline Dwarf_Small symbolicate_object_length_size_(void *object) {
    (void)object;
    return 4;
}
static inline Dwarf_Unsigned symbolicate_object_section_count_(void *object) {
    return ((symbolicate_section_source *)object)->section_count;
}

/* The calls every libdwarf layout makes, whatever its index type and struct fields. */
static inline int symbolicate_object_describe_(void *object, Dwarf_Unsigned index, const char **name,
                                               Dwarf_Unsigned *type, Dwarf_Unsigned *size, int *error) {
    symbolicate_section_source *source = (symbolicate_section_source *)object;
    return source->section_info(source->context, index, name, type, size, error);
}
static inline int symbolicate_object_load_(void *object, Dwarf_Unsigned index, Dwarf_Small **data,
                                           int *error) {
    symbolicate_section_source *source = (symbolicate_section_source *)object;
    return source->load_section(source->context, index, data, error);
}

#if SYMBOLICATE_LIBDWARF_LEGACY
static inline int symbolicate_object_section_info_(void *object, Dwarf_Half index,
                                                   Dwarf_Obj_Access_Section *out, int *error) {
    memset(out, 0, sizeof *out);
    return symbolicate_object_describe_(object, index, &out->name, &out->type, &out->size, error);
}
static inline Dwarf_Endianness symbolicate_object_byte_order_(void *object) {
    (void)object;
    return DW_OBJECT_LSB;
}
static inline int symbolicate_object_load_section_(void *object, Dwarf_Half index,
                                                   Dwarf_Small **data, int *error) {
    return symbolicate_object_load_(object, index, data, error);
}
#else
static inline int symbolicate_object_section_info_(void *object, Dwarf_Unsigned index,
                                                   Dwarf_Obj_Access_Section_a *out, int *error) {
    memset(out, 0, sizeof *out);
    return symbolicate_object_describe_(object, index, &out->as_name, &out->as_type, &out->as_size, error);
}
static inline Dwarf_Small symbolicate_object_byte_order_(void *object) {
    (void)object;
    return DW_END_little;
}
static inline Dwarf_Unsigned symbolicate_object_file_size_(void *object) {
    return ((symbolicate_section_source *)object)->file_size;
}
static inline int symbolicate_object_load_section_(void *object, Dwarf_Unsigned index,
                                                   Dwarf_Small **data, int *error) {
    return symbolicate_object_load_(object, index, data, error);
}
#endif

/* An error handler that does nothing: with it (and an error pointer on every call) libdwarf
   reports errors to the caller instead of aborting the process. */
static inline void symbolicate_ignore_error_(Dwarf_Error error, Dwarf_Ptr argument) {
    (void)error;
    (void)argument;
}

/* Builds the interface for `object->source` and opens it (dwarf_object_init_b). */
static inline int symbolicate_object_init(symbolicate_object *object, Dwarf_Debug *debug,
                                          Dwarf_Error *error) {
    memset(&object->methods, 0, sizeof object->methods);
#if SYMBOLICATE_LIBDWARF_LEGACY
    object->methods.get_section_info = symbolicate_object_section_info_;
    object->methods.get_byte_order = symbolicate_object_byte_order_;
    object->methods.get_length_size = symbolicate_object_length_size_;
    object->methods.get_pointer_size = symbolicate_object_pointer_size_;
    object->methods.get_section_count = symbolicate_object_section_count_;
    object->methods.load_section = symbolicate_object_load_section_;
    object->interface.object = &object->source;
    object->interface.methods = &object->methods;
#else
    object->methods.om_get_section_info = symbolicate_object_section_info_;
    object->methods.om_get_byte_order = symbolicate_object_byte_order_;
    object->methods.om_get_length_size = symbolicate_object_length_size_;
    object->methods.om_get_pointer_size = symbolicate_object_pointer_size_;
    object->methods.om_get_filesize = symbolicate_object_file_size_;
    object->methods.om_get_section_count = symbolicate_object_section_count_;
    object->methods.om_load_section = symbolicate_object_load_section_;
    object->interface.ai_object = &object->source;
    object->interface.ai_methods = &object->methods;
#endif
    return dwarf_object_init_b(&object->interface, symbolicate_ignore_error_, 0,
                               DW_GROUPNUMBER_ANY, debug, error);
}

/* Closes a session opened by symbolicate_object_init. 20210528 takes an error pointer;
   0.x/2.x take none (it never fails there). Frees only libdwarf's own data: the served
   sections stay ours. */
static inline void symbolicate_object_finish(Dwarf_Debug debug) {
#if SYMBOLICATE_LIBDWARF_LEGACY
    Dwarf_Error error = 0;
    if (dwarf_object_finish(debug, &error) == DW_DLV_ERROR && error) {
        dwarf_dealloc_error(0, error);
    }
#else
    (void)dwarf_object_finish(debug);
#endif
}

/* Next compile-unit header of .debug_info and its unit DIE (_d + siblingof_b before 0.9.0,
   _e from then on). Returns DW_DLV_NO_ENTRY after the last unit. */
static inline int symbolicate_next_unit(Dwarf_Debug debug, Dwarf_Die *unit_die,
                                        Dwarf_Unsigned *next_header_offset, Dwarf_Error *error) {
    Dwarf_Unsigned header_length = 0, type_offset = 0;
    Dwarf_Half version = 0, address_size = 0, length_size = 0, extension_size = 0, unit_type = 0;
    Dwarf_Off abbrev_offset = 0;
    Dwarf_Sig8 signature;
    memset(&signature, 0, sizeof signature);
#if SYMBOLICATE_LIBDWARF_HAS_NEXT_CU_HEADER_E
    return dwarf_next_cu_header_e(debug, 1, unit_die, &header_length, &version, &abbrev_offset,
                                  &address_size, &length_size, &extension_size, &signature,
                                  &type_offset, next_header_offset, &unit_type, error);
#else
    int result = dwarf_next_cu_header_d(debug, 1, &header_length, &version, &abbrev_offset,
                                        &address_size, &length_size, &extension_size, &signature,
                                        &type_offset, next_header_offset, &unit_type, error);
    if (result != DW_DLV_OK) return result;
    return dwarf_siblingof_b(debug, 0, 1, unit_die, error);
#endif
}

#endif
