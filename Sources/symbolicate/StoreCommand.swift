// Built with the Server trait (on by default); without it BuildTraits.swift names the trait instead.
#if Server
    import ArgumentParser
    import Foundation
    import SymbolicatePipeline
    import SymbolicateServe

    /// `symbolicate store`: upkeep of a debug-file store (the folder `serve --store` and the
    /// download cache keep debug files in).
    struct StoreCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Keep a debug-file store (the folder serve --store uses) in order.",
            discussion: """
                A store keeps one debug file per UUID or build ID in FOLDER/xx/rest/debug with its \
                metadata in info.json, and an index of every entry in FOLDER/index.sqlite, so that \
                lookups never walk the folders. --rebuild-index makes the index again from the \
                folders: for a store copied or changed by hand, or an index that was lost or damaged \
                (a damaged index.sqlite is kept aside as index.sqlite.damaged-TIME and replaced by a \
                new file); what a killed server left in the store is removed first. A store \
                without an index gets one the first time it is opened. With --store-index, the \
                PostgreSQL index that serve --store-index uses for the same folder is rebuilt instead.
                """
        )

        @Argument(
            help:
                "The store's folder. Default: $XDG_DATA_HOME/symbolicate/store or ~/.local/share/symbolicate/store (as serve --store).")
        var folder: String?

        @Flag(name: .customLong("rebuild-index"), help: "Make the store's index again from its folders.")
        var rebuildIndex = false

        @Option(
            name: .customLong("store-index"),
            help: ArgumentHelp(
                "The store's index to rebuild when it is not the folder's own SQLite file: postgres://USER@HOST:PORT/DATABASE (as serve --store-index).",
                valueName: "url"))
        var storeIndex: String?

        func validate() throws {
            guard rebuildIndex else { throw ValidationError("say what to do: --rebuild-index") }
            if let storeIndex, !ServeStore.isIndexURL(storeIndex) {
                throw ValidationError("--store-index is a postgres://USER@HOST:PORT/DATABASE URL")
            }
        }

        func run() throws {
            let root = folder ?? ServeStore.defaultRoot()
            do {
                let rebuilt = try ServeStore.rebuildIndex(at: root, indexURL: storeIndex)
                for problem in rebuilt.problems { Console.write("symbolicate store: warning: \(problem)\n", to: .standardError) }
                Console.write("\(root): indexed \(rebuilt.entries) entries\n", to: .standardOutput)
            } catch {
                Console.write("symbolicate store: error: \(error)\n", to: .standardError)
                throw ExitCode(ExitStatus.cannotWrite.rawValue)
            }
        }
    }
#endif
