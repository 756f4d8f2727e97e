// Which ELF reader the package uses. libelf (elfutils) is the default on Linux, where the
// design names libelf-dev; macOS has no elfutils, so a macOS build — and any build made with
// SYMBOLICATE_ELF_READER=swift in the environment (Package.swift then defines
// SYMBOLICATE_NO_LIBELF and drops CLibElf) — reads ELF with the pure-Swift reader. The default
// Linux build compiles both, so ELFReaderAgreementTests can compare them.
#if SYMBOLICATE_NO_LIBELF
    package typealias ELFFile = SwiftELFFile
#else
    package typealias ELFFile = LibElfFile
#endif

/// Which reader `ELFFile` is, for logs and the Mac-shaped CI lane's check.
package let elfReaderName: String = {
    #if SYMBOLICATE_NO_LIBELF
        "swift"
    #else
        "libelf"
    #endif
}()
