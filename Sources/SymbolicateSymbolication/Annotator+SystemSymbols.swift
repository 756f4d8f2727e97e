import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateSystemSymbols

/// The annotator's one hook into system symbols: images no debug file matched are looked up
/// by UUID among Apple's own libraries, and only when a frame in them still needs a name.
extension Annotator {
    /// Positions of images with a frame worth naming: one without a name, or any frame
    /// under `--resymbolicate`. Reports whose system frames the OS already named never
    /// index a DeviceSupport folder or open a cache.
    func imagesWithFramesToName(_ report: CrashReport) -> Set<Int> {
        var positions: Set<Int> = []
        for (_, frames) in report.allBacktraces {
            for frame in frames where options.resymbolicate || frame.isUnsymbolicated {
                if let index = frame.imageIndex ?? report.binaryImages.firstIndex(where: { $0.contains(frame.address) }) {
                    positions.insert(index)
                }
            }
        }
        return positions
    }

    /// The builds to ask remote sources for: app images and images with a frame to name, with
    /// an identity and no local debug file. Asked all at once (`prefetch`), so their downloads
    /// run side by side.
    func remotelyWanted(_ report: CrashReport, positions: Set<Int>) -> [Int: WantedDebugFile] {
        guard let remoteDebugFiles else { return [:] }
        var wanted: [Int: WantedDebugFile] = [:]
        let appImages = report.binaryImages.indices.filter { report.binaryImages[$0].isAppOwned }
        for position in positions.union(appImages).sorted() where report.binaryImages.indices.contains(position) {
            let image = report.binaryImages[position]
            guard let id = image.debugID, index.entries(id: id).isEmpty else { continue }
            wanted[position] = WantedDebugFile(
                id: id, architecture: image.arch ?? report.architecture, name: image.name, isAppImage: image.isAppOwned)
        }
        if !wanted.isEmpty { remoteDebugFiles.prefetch(Array(Set(wanted.values))) }
        return wanted
    }

    /// The system image with the report image's UUID, opened for lookups.
    func systemImage(_ image: BinaryImage, report: CrashReport) -> (lookup: any DebugLookup, displayPath: String)? {
        guard let systemSymbols, let id = image.debugID else { return nil }
        return systemSymbols.image(id: id, architecture: image.arch ?? report.architecture, os: report.operatingSystem)
    }
}
