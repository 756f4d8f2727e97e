import Foundation
import SymbolicateCore
import SymbolicateJSON

#if PLCrash
    import SwiftProtobuf
#endif

/// PLCrashReporter's `.plcrash` file: the 7 bytes `plcrash`, a version byte (1), then one
/// protobuf `CrashReport` message (scripts/protos/plcrash.proto). Every thread with its frames
/// and the crashed thread's registers, the images with their UUIDs and CPU types, the signal and
/// the Mach exception behind it, the uncaught `NSException` with the frames of its throw, and
/// the system, app, process and machine.
///
/// Like KSCrash and Sentry reports, it is translated into an `.ips` body (`SynthesizedIPS`), so
/// the model, the Apple text rendering and every later stage are the ones an `.ips` of the
/// same crash gets; the uncaught exception is set as a typed fact. The text rendering follows
/// `plcrashutil convert --format=iphone` where that tool and Apple's layout agree.
package enum PLCrashReportReader: BinaryReportReader {
    static let magic = Array("plcrash".utf8)
    /// The one version PLCrashReporter has written.
    static let version: UInt8 = 1
    /// Magic and version byte.
    static let headerLength = 8

    /// The magic followed by a byte no text has there (a version number, a control byte), or
    /// by nothing: a text that merely starts with the word "plcrash" stays text.
    package static func detect(head: ArraySlice<UInt8>) -> Void? {
        guard head.starts(with: magic) else { return nil }
        let next = head.dropFirst(magic.count).first
        return next.map { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } ?? true ? () : nil
    }

    package static func read(_ bytes: [UInt8], evidence: Void, path: String) throws(CrashReportError) -> [CrashReport] {
        guard bytes.count > magic.count else {
            throw CrashReportError(
                kind: .truncated, path: path, offset: bytes.count,
                message: "PLCrashReporter report cut after its magic: no version byte and no report")
        }
        let version = bytes[magic.count]
        guard version == Self.version else {
            throw CrashReportError(
                kind: .notACrashReport, path: path, offset: magic.count,
                message: "PLCrashReporter report of version \(version), not one of the versions read (\(Self.version))")
        }
        guard bytes.count > headerLength else {
            throw CrashReportError(
                kind: .truncated, path: path, offset: bytes.count, message: "PLCrashReporter report cut after its header: no report")
        }
        #if PLCrash
            return [try report(bytes, path: path)]
        #else
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "a PLCrashReporter report (.plcrash): this build of symbolicate was made without the PLCrash trait")
        #endif
    }
}

#if PLCrash
    extension PLCrashReportReader {
        typealias Wire = PLCrashWireCrashReport

        /// The decoded message, or the error naming the first damaged byte.
        static func decode(_ bytes: [UInt8], path: String) throws(CrashReportError) -> Wire {
            let message = bytes[headerLength...]
            do {
                var options = BinaryDecodingOptions()
                // Deeper than any report nests (five levels); a fabricated file gets an error.
                options.messageDepthLimit = PLCrashDamage.maxDepth
                return try Wire(serializedBytes: Array(message), partial: true, options: options)
            } catch {
                guard let finding = PLCrashDamage.find(in: message, base: headerLength) else {
                    throw CrashReportError(
                        kind: .damaged, path: path,
                        message: "damaged PLCrashReporter report: its protobuf message does not decode (\(error))")
                }
                throw CrashReportError(
                    kind: finding.truncated ? .truncated : .damaged, path: path,
                    jsonPath: finding.place.isEmpty ? nil : finding.place, offset: finding.offset,
                    message: (finding.truncated ? "PLCrashReporter report cut short: " : "damaged PLCrashReporter report: ")
                        + finding.message)
            }
        }

        static func report(_ bytes: [UInt8], path: String) throws(CrashReportError) -> CrashReport {
            let wire = try decode(bytes, path: path)
            var warnings: [ParseWarning] = []
            func missing(_ what: String) {
                warnings.append(ParseWarning(path: path, jsonPath: what, message: "the report has no \(what); read without it"))
            }
            if !wire.hasSystemInfo { missing("system_info") }
            if !wire.hasApplicationInfo { missing("application_info") }
            if !wire.hasSignal { missing("signal") }

            let system = wire.systemInfo
            let app = wire.applicationInfo
            let process = wire.processInfo
            let osName = operatingSystemName(system)
            let arch = architecture(wire)
            var ips = SynthesizedIPS()
            let identity = ForeignIdentity(
                incident: wire.reportInfo.hasUuid ? uuidString(wire.reportInfo.uuid).map(JSONValue.string) : nil,
                captureTime: system.timestamp > 0 ? DarwinNames.utcTimestamp(Double(system.timestamp)) : nil,
                processName: process.hasProcessName ? process.processName : nil,
                bundleShortVersion: app.hasMarketingVersion ? .string(app.marketingVersion) : (app.hasVersion ? .string(app.version) : nil),
                bundleVersion: app.hasMarketingVersion && app.hasVersion ? .string(app.version) : nil,
                bundleIdentifier: app.hasIdentifier ? .string(app.identifier) : nil,
                osName: osName, osVersion: system.hasOsVersion ? system.osVersion : nil,
                osBuild: system.hasOsBuild ? .string(system.osBuild) : nil,
                model: wire.machineInfo.hasModel ? .string(wire.machineInfo.model) : nil, arch: arch)
            ips.set(identity)
            if wire.hasProcessInfo {
                ips.set("pid", process.hasProcessID ? .int(UInt64(process.processID)) : nil)
                ips.set("procPath", process.hasProcessPath ? .string(process.processPath) : nil)
                ips.set("parentProc", process.hasParentProcessName ? .string(process.parentProcessName) : nil)
                ips.set("parentPid", process.hasParentProcessID ? .int(UInt64(process.parentProcessID)) : nil)
                if process.hasNative, !process.native { ips.set("translated", .bool(true)) }
                if process.hasStartTime, let start = DarwinNames.utcTimestamp(Double(process.startTime)) {
                    ips.set("procLaunch", .string(start))
                }
            }

            // Images, in the report's order (plcrashutil sorts its list by address; frames name
            // their image by index here, so the order read is kept).
            for (i, image) in wire.binaryImages.enumerated() {
                var uuid: String?
                // An empty UUID is none (the reporter writes one only when the image has LC_UUID).
                if image.hasUuid, !image.uuid.isEmpty {
                    uuid = uuidString(image.uuid)
                    if uuid == nil {
                        warnings.append(
                            ParseWarning(
                                path: path, jsonPath: "binary_images[\(i)].uuid",
                                message: "image UUID is \(image.uuid.count) bytes, not 16; the image is read without it"))
                    }
                }
                let codeArch =
                    image.hasCodeType && image.codeType.encoding.rawValue == 1
                    ? DarwinNames.arch(
                        cpuType: Int(truncatingIfNeeded: image.codeType.type), subtype: Int(truncatingIfNeeded: image.codeType.subtype))
                    : nil
                ips.addImage(
                    base: image.baseAddress, size: image.hasSize ? image.size : nil, uuid: uuid,
                    path: image.hasName && !image.name.isEmpty ? image.name : nil, name: nil, arch: codeArch)
            }

            // The signal, and the Mach exception behind it when the reporter caught one.
            let signal = wire.signal
            let signalName = signal.hasName && !signal.name.isEmpty ? signal.name : nil
            let signalNumber = signalName.flatMap(DarwinNames.signalNumber)
            if wire.hasSignal {
                var exception = JSONValue.object([])
                let at = signal.hasAddress ? " at \(DarwinNames.hex64(signal.address))" : ""
                if signal.hasMachException {
                    let mach = signal.machException
                    let type = Int(truncatingIfNeeded: mach.type)
                    let codes = mach.codes
                    exception.setMachException(
                        DarwinNames.machExceptions[type] ?? "exception type \(mach.type)", signal: signalName,
                        code: codes.first, subcode: codes.count > 1 ? codes[1] : nil)
                    if type == 1, let kern = codes.first.flatMap({ DarwinNames.kernReturns[$0] }) {
                        exception.set("subtype", .string(kern + (codes.count > 1 ? " at \(DarwinNames.hex64(codes[1]))" : at)))
                    }
                } else {
                    exception.set("type", .string(signalName ?? "unknown signal"))
                    let code = signal.hasCode && !signal.code.isEmpty && signal.code != "#0" ? signal.code : nil
                    let subtype = (code ?? "") + (code == nil ? String(at.dropFirst()) : at)
                    if !subtype.isEmpty { exception.set("subtype", .string(subtype)) }
                }
                ips.set("exception", exception)
                if let signalNumber { ips.setSignalTermination(signalNumber, name: signalName) }
            }

            // Threads: frames innermost first, as the reporter writes them.
            var stripped: [(UInt64, UInt64)] = []
            let stripUnderscore = osName != nil
            func frames(_ list: [Wire.Thread.StackFrame]) -> [JSONValue] {
                list.map { f in
                    var symbol: String?
                    if f.hasSymbol, f.symbol.hasName, !f.symbol.name.isEmpty {
                        // As plcrashutil prints them on Apple systems: without the C prefix `_`.
                        let name = f.symbol.name
                        symbol = stripUnderscore && name.hasPrefix("_") && name.count > 1 ? String(name.dropFirst()) : name
                    }
                    return ips.frame(
                        address: f.pc, imageBase: nil, symbol: symbol,
                        symbolAddress: f.hasSymbol && f.symbol.hasStartAddress ? f.symbol.startAddress : nil, stripped: &stripped)
                }
            }
            var threads: [JSONValue] = []
            var numbers: [Int?] = []
            var crashedIndex: Int?
            for t in wire.threads {
                var thread = JSONValue.object([])
                if t.crashed {
                    thread.set("triggered", .bool(true))
                    if crashedIndex == nil { crashedIndex = threads.count }
                }
                thread.set("frames", .array(frames(t.frames)))
                if !t.registers.isEmpty {
                    var state = JSONValue.object([])
                    for r in t.registers where r.hasName && !r.name.isEmpty {
                        // Apple's reports call ARM's r12 `ip`, as plcrashutil does.
                        let name = r.name == "r12" && arch.map({ $0.hasPrefix("arm") && !$0.hasPrefix("arm64") }) == true ? "ip" : r.name
                        state.set(name, .object([("value", .int(r.value))]))
                    }
                    thread.set("threadState", state)
                }
                threads.append(thread)
                numbers.append(t.hasThreadNumber ? Int(t.threadNumber) : nil)
            }
            ips.set("threads", .array(threads))
            if let crashedIndex { ips.set("faultingThread", .int(UInt64(crashedIndex))) }
            let exception = wire.exception
            if wire.hasException, !exception.frames.isEmpty {
                ips.set("lastExceptionBacktrace", .array(frames(exception.frames)))
            }
            if let warning = ParseWarning.pointerAuthenticationStripped(stripped, path: path) { warnings.append(warning) }

            var report = CrashReport.fromForeign(ips, identity: identity, path: path, format: .plcrash, foreign: nil, warnings: warnings)
            if wire.hasException {
                report.setUncaught(
                    UncaughtException(
                        language: .objectiveC, name: exception.hasName && !exception.name.isEmpty ? exception.name : "NSException",
                        reason: exception.hasReason ? exception.reason : nil))
            }
            if wire.reportInfo.userRequested {
                var record = ReporterRecordFact(reporter: "PLCrashReporter")
                record.isRequestedByApp = true
                report.facts.reporterRecord = record
            }
            report.reportVersion = "PLCrashReporter format \(Self.version)"
            KSCrashReportReader.renumber(&report, numbers)
            return report
        }

        /// plcrashutil's names for the report's operating system; nil when the report says none
        /// it knows (then symbol names keep their leading `_`, as plcrashutil keeps them).
        static func operatingSystemName(_ system: Wire.SystemInfo) -> String? {
            guard system.hasOperatingSystem else { return nil }
            switch system.operatingSystem.rawValue {
            case 0, 2: return "Mac OS X"
            case 1: return "iPhone OS"
            case 4: return "Apple tvOS"
            default: return nil
            }
        }

        /// The architecture: the first image with a Mach CPU type the formatter knows, then the
        /// machine's processor, then the deprecated architecture code (plcrashutil's order).
        static func architecture(_ wire: Wire) -> String? {
            for image in wire.binaryImages where image.hasCodeType && image.codeType.encoding.rawValue == 1 {
                if let arch = DarwinNames.arch(
                    cpuType: Int(truncatingIfNeeded: image.codeType.type), subtype: Int(truncatingIfNeeded: image.codeType.subtype))
                {
                    return arch
                }
            }
            let processor = wire.machineInfo.processor
            if wire.machineInfo.hasProcessor, processor.encoding.rawValue == 1,
                let arch = DarwinNames.arch(
                    cpuType: Int(truncatingIfNeeded: processor.type), subtype: Int(truncatingIfNeeded: processor.subtype))
            {
                return arch
            }
            guard wire.systemInfo.hasArchitecture else { return nil }
            return [0: "i386", 1: "x86_64", 2: "armv6", 5: "armv7"][wire.systemInfo.architecture]
        }

        static func uuidString(_ data: Data) -> String? {
            guard data.count == 16 else { return nil }
            let b = [UInt8](data)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
                .uuidString
        }
    }
#endif
