/// The address arithmetic of symbolication, in one place (ARCHITECTURE.md: the slide is
/// computed nowhere else).
///
/// - `loadAddress`: where the image was loaded in the crashed process (from the report).
/// - `linkedAddress`: where the debug file says the image starts (`__TEXT` vmaddr for
///   Mach-O; the lowest `PT_LOAD` vaddr for ELF, since the Swift runtime's backtracer prints
///   an image's base as its lowest mapping — 0 for a PIE or shared object).
/// - `slide = loadAddress − linkedAddress` (wrapping: images may load below their link
///   address).
/// - `lookupAddress`: the frame's address for the top frame of a backtrace (a program
///   counter), `address − 1` for every other frame (a return address points after the call;
///   − 1 lands inside it, as Apple's tools do).
/// - `fileAddress = lookupAddress − slide`: what the debug information is asked about.
package struct ImageSlide: Sendable, Hashable {
    package let value: UInt64

    package init(loadAddress: UInt64, linkedAddress: UInt64) {
        value = loadAddress &- linkedAddress
    }

    /// The debug file's address for a runtime address.
    package func fileAddress(_ runtimeAddress: UInt64) -> UInt64 {
        runtimeAddress &- value
    }

    /// The address to look up for a frame: the PC itself for the top frame, the byte before
    /// the return address for callers.
    package static func lookupAddress(_ address: UInt64, isTopFrame: Bool) -> UInt64 {
        isTopFrame ? address : address &- 1
    }
}
