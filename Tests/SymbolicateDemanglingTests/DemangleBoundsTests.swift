import Foundation
import SymbolicateDemangling
import SymbolicateTestSupport
import Testing

/// The demanglers' bounds (issue 54, adversarial findings 1 and 2): names anyone can send
/// (a report posted to `serve`, a symbol table in an uploaded file) never exhaust the stack,
/// never print gigabytes and never run for minutes; real names demangle exactly as before.
/// Each hostile family is built here, at sizes that crashed or hung before; no test measures
/// time.
@Suite struct DemangleBoundsTests {
    // MARK: - Stack (finding 1)

    /// The deepest C++ shapes, one byte (or three) per level: pointers, references, cv and
    /// vendor qualifiers, nested templates, function types, arrays, member pointers, nested
    /// expressions. `_Z1f` + 90,000 `P` + `i` and 100,000 nested `1AI…E` were SIGSEGV.
    static func deepItaniumNames(length: Int) -> [String] {
        func chain(_ head: String, _ open: String, _ close: String = "", _ middle: String = "i", tail: String = "") -> String {
            let levels = max(1, (length - head.count - middle.count - tail.count) / (open.count + close.count))
            return head + String(repeating: open, count: levels) + middle + String(repeating: close, count: levels) + tail
        }
        return [
            chain("_Z1f", "P"), chain("_Z1f", "R"), chain("_Z1f", "K"), chain("_Z1f", "PK"), chain("_Z", "1AI", "E", tail: "vv"),
            chain("_Z1f", "FP", "E", "v"), chain("_Z1f", "A1_"), chain("_Z1f", "M1A"), chain("_Z1fIiEDT", "pl", "Li1E", "Li1E", tail: "Ev"),
            chain("_Z1fIiEDT", "ng", "", "Li1E", tail: "Ev"), chain("_Z1f", "U3foo"),
        ]
    }

    @Test func deepItaniumNamesAreRefusedNotCrashed() {
        #expect(
            Demangler.demangling("_Z1f" + String(repeating: "P", count: 90_000) + "i") == .refused(.tooLong(length: 90_005, limit: 32_768)))
        let nested = "_Z" + String(repeating: "1AI", count: 100_000) + "i" + String(repeating: "E", count: 100_000) + "vv"
        #expect(Demangler.demangling(nested) == .refused(.tooLong(length: nested.utf8.count, limit: 32_768)))
        // At the longest length admitted every shape is parsed (on the large stack) and either
        // printed or refused for its printed length; none crashes.
        for name in Self.deepItaniumNames(length: 32_768) {
            switch Demangler.demangling(name) {
            case .demangled, .refused(.tooLarge): break
            case let other: Issue.record("\(name.prefix(24))…: \(other)")
            }
        }
    }

    /// The same shapes on a 512 KiB thread (the size of a macOS secondary thread, which CI's
    /// Mac-shaped lane gives threads): names around the length demangled on the caller's own
    /// stack (256 bytes) and longer ones, which go to a thread of their own, are all safe.
    @Test func deepItaniumNamesAreSafeOn512KiBThreads() {
        var names: [String] = []
        for length in [200, 256, 257, 300, 2_000, 32_768] { names += Self.deepItaniumNames(length: length) }
        let all = names
        let outcomes = Self.onThread(stackBytes: 512 << 10) { all.map(Demangler.demangling) } ?? []
        #expect(outcomes.count == names.count)
        // The short ones print in full: a pointer chain of 200 bytes is a real (if odd) type.
        #expect(outcomes.first?.text?.hasPrefix("f(int***") == true)
    }

    /// Swift's runtime demangler and our Rust v0 parser recurse per level too: their deepest
    /// shapes, short (on the caller's stack) and long (on a thread of their own), on a 512 KiB
    /// thread. Function types in function types took 4 KiB a level in Rust, optionals of
    /// optionals 1.5 KiB in Swift: both overflowed such a thread before.
    @Test func deepSwiftAndRustNamesAreSafeOn512KiBThreads() {
        func fill(_ head: String, _ unit: String, _ tail: String, _ length: Int) -> String {
            head + String(repeating: unit, count: max(1, (length - head.count - tail.count) / unit.count)) + tail
        }
        var names: [String] = []
        for length in [60, 64, 65, 200, 256, 257, 2_000, 16_000] {
            names += [
                fill("$sSi", "Sg", "D", length), fill("$sSi", "Xp", "D", length), fill("$sSi", "z", "D", length),
                fill("$s1a", "1bV", "D", length),
            ]
        }
        for depth in [20, 31, 32, 120, 298, 400] {
            let levels = String(repeating: "E", count: depth)
            names += [
                "_RINvC1a1f" + String(repeating: "P", count: depth) + "lE",
                "_RINvC1a1f" + String(repeating: "Tl", count: depth) + "l" + levels + "E",
                "_R" + String(repeating: "Nv", count: depth) + "C1a" + String(repeating: "1f", count: depth),
                "_RINvC1a1fKA" + String(repeating: "A", count: depth) + "j1_" + levels + "EE",
                "_RINvC1a1fF" + String(repeating: "FP", count: depth) + "u" + String(repeating: "Eu", count: depth) + "EuE",
            ]
        }
        let all = names
        let outcomes = Self.onThread(stackBytes: 512 << 10) { all.map(Demangler.demangling) } ?? []
        #expect(outcomes.count == names.count)
        #expect(outcomes.first?.text == "Int" + String(repeating: "?", count: 27))
        #expect(outcomes.contains { $0 == .refused(.tooLarge(limit: DemangleLimits.maxOutputBytes)) })
    }

    static func onThread<T: Sendable>(stackBytes: Int, _ body: @escaping @Sendable () -> T) -> T? {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = body()
            done.signal()
        }
        thread.stackSize = stackBytes
        thread.start()
        done.wait()
        return box.value
    }

    final class Box<T>: @unchecked Sendable {
        var value: T?
    }

    // MARK: - Output that doubles (finding 2)

    /// C++: `X<int, int>`, then `X<S0_, S0_>`, `X<S1_, S1_>`…: each type is its predecessor
    /// twice. 20 levels (210 bytes) printed 33 MB; 40 would print terabytes.
    static func doublingItanium(levels: Int) -> String {
        func seq(_ index: Int) -> String {
            guard index > 0 else { return "S_" }
            return "S" + String(index - 1, radix: 36, uppercase: true) + "_"
        }
        var name = "_Z1f1XIiiE"
        for level in 1...levels { name += "S_I" + seq(level) + seq(level) + "E" }
        return name
    }

    /// Swift: `[Int : Int]`, then a dictionary of it to itself, level after level (`A2A` is
    /// substitution 0 twice). 22 levels (165 bytes) printed 134 MB in 18 s.
    static func doublingSwift(levels: Int) -> String {
        var name = "$sSDySiSiG"
        for level in 0..<levels {
            let index = level < 26 ? String(UnicodeScalar(UInt8(65 + level))) : "\(level - 27 < 0 ? "" : String(level - 27))_"
            name += level < 26 ? "SDyA2\(index)G" : "SDyA\(index)A\(index)G"
        }
        return name + "D"
    }

    /// Rust v0: `f::<T>` where each tuple type holds the one inside it and a backreference to
    /// it: `TTTlB…_EB…_EB…_E`, 2^levels printed.
    static func doublingRust(levels: Int) -> String {
        func base62(_ value: Int) -> String {
            guard value > 0 else { return "_" }
            let digits = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            var rest = value - 1
            var text = ""
            repeat {
                text = String(digits[rest % 62]) + text
                rest /= 62
            } while rest > 0
            return text + "_"
        }
        let head = "INvC1a1f"
        var name = "_R" + head + String(repeating: "T", count: levels) + "l"
        // Level k (innermost 1) holds level k - 1, which starts after k's own `T`.
        for level in 1...levels { name += "B" + base62(head.count + levels - level + 1) + "E" }
        return name + "E"
    }

    /// Small names of each family demangle (and print what the oracle prints, below); from
    /// where the text would pass 1 MiB they are refused. Between, either is right: the bounds
    /// are measured on the parsed name (C++) or by a linear scan (Swift), both upper bounds.
    static func check(_ name: String, levels: Int, refusedFrom: Int) {
        switch Demangler.demangling(name) {
        case .demangled(let text):
            #expect(levels < refusedFrom, "\(levels) levels printed \(text.utf8.count) bytes")
            #expect(text.utf8.count <= DemangleLimits.maxOutputBytes)
        case .refused(.tooLarge(let limit)):
            #expect(limit == DemangleLimits.maxOutputBytes)
            #expect(levels >= 10, "\(levels) levels refused")
        case let other:
            Issue.record("\(levels) levels: \(other)")
        }
    }

    @Test(arguments: [4, 10, 20, 30, 40, 60])
    func doublingItaniumNamesAreBounded(levels: Int) {
        Self.check(Self.doublingItanium(levels: levels), levels: levels, refusedFrom: 16)
    }

    @Test(arguments: [4, 10, 16, 20, 30, 40])
    func doublingSwiftNamesAreBounded(levels: Int) {
        Self.check(Self.doublingSwift(levels: levels), levels: levels, refusedFrom: 16)
    }

    @Test(arguments: [4, 8, 16, 20, 30, 64])
    func doublingRustNamesAreBounded(levels: Int) {
        Self.check(Self.doublingRust(levels: levels), levels: levels, refusedFrom: 20)
    }

    /// The small ones print what the oracles print.
    @Test func smallDoublingNamesMatchTheOracles() throws {
        let itanium = Self.doublingItanium(levels: 4)
        var type = "X<int, int>"
        var parameters = [type]
        for _ in 1...4 {
            type = "X<\(type), \(type)>"
            parameters.append(type)
        }
        #expect(Demangler.demangle(itanium) == "f(\(parameters.joined(separator: ", ")))")
        var tuple = "(i32, i32)"
        for _ in 2...4 { tuple = "(\(tuple), \(tuple))" }
        #expect(Demangler.demangle(Self.doublingRust(levels: 4)) == "a::f::<\(tuple)>")
        let swift = Self.doublingSwift(levels: 4)
        guard let tool = ExternalTool.find("swift-demangle") else { return }
        #expect(
            try Demangler.demangle(swift) == ExternalTool.run(tool, ["--simplified"], stdin: swift + "\n").trimmingCharacters(in: .newlines)
        )
    }

    /// Many hostile names in a row finish too (the bound is per name, the work linear in it).
    @Test func aThousandHostileNamesFinish() {
        var refused = 0
        for level in 0..<1_000 {
            let names = [
                Self.doublingItanium(levels: 40 + level % 7), Self.doublingSwift(levels: 30 + level % 7),
                Self.doublingRust(levels: 40 + level % 7),
            ]
            refused += names.filter { if case .refused = Demangler.demangling($0) { true } else { false } }.count
        }
        #expect(refused == 3_000)
    }

    @Test func overlongSwiftAndRustNamesAreRefused() {
        let swift = "$s" + String(repeating: "Sg", count: 20_000) + "SiD"
        #expect(Demangler.demangling(swift) == .refused(.tooLong(length: swift.utf8.count, limit: DemangleLimits.maxNameBytes)))
        let rust = "_RNvC1a" + String(repeating: "1b", count: 20_000)
        #expect(Demangler.demangling(rust) == .refused(.tooLong(length: rust.utf8.count, limit: DemangleLimits.maxNameBytes)))
    }

    // MARK: - Real names are unchanged

    /// Real names with many substitutions, the ones whose bound comes closest to the limit
    /// among the 42,000 Swift names of the toolchain's libraries (their pre-scan bound is
    /// hundreds of times their length), and long C++ names of LLVM's own library (over the
    /// length demangled on the caller's stack, so they run on the large-stack thread): each
    /// demangles exactly as the oracle prints it.
    static let realSwiftNames = [
        "$s20FoundationEssentials16AttributedStringV4RunsVyAE16AttributesSlice5Vy__xq_q0_q1_q2_Gs7KeyPathCyAA22AttributeDynamicLookupOxG_AJyALq_GAJyALq0_GAJyALq1_GAJyALq2_GtcAA0cdH0RzAaRR_AaRR0_AaRR1_AaRR2_r3_luig",
        "$s20FoundationEssentials16AttributedStringV22transformingAttributesyACs7KeyPathCyAA22AttributeDynamicLookupOxG_AFyAHq_GAFyAHq0_GAFyAHq1_GAFyAHq2_GyAC06SingleI11TransformerVy_xGz_AOy_q_GzAOy_q0_GzAOy_q1_GzAOy_q2_GztXEtAA0cdG0RzAaUR_AaUR0_AaUR1_AaUR2_r3_lF",
        "$s20FoundationEssentials8CalendarV14RecurrenceRuleV8calendar9frequency8interval3end14matchingPolicy012repeatedTimeK06months13daysOfTheYear0opQ5Month5weeks8weekdays5hours7minutes7seconds12setPositionsAeC_AE9FrequencyOSiAE3EndVAC08MatchingK0OAC08RepeatedmK0OSayAE0S0VGSaySiGA4_A4_SayAE7WeekdayOGA4_A4_A4_A4_tcfC",
        "$s20FoundationEssentials17LocalePreferencesV11metricUnits9languages6locale14collationOrder12firstWeekday18minDaysInFirstWeek7country011measurementF015temperatureUnit11force24Hour07force12W013numberSymbolsACSbSg_SaySSGSgSSSgASSDyAA8CalendarV10IdentifierOSiGSgAysC011MeasurementU0OSgAC011TemperatureU0OSgA2PSDys6UInt32VSSGSgtcfC",
        "$sScA15unownedExecutorScevgTj",
    ]

    static let realItaniumNames = [
        "_ZNSt10_HashtableISt4pairIjN4llvm11LaneBitmaskEES3_SaIS3_ENSt8__detail9_IdentityESt8equal_toIS3_ESt4hashIS3_ENS5_18_Mod_range_hashingENS5_20_Default_ranged_hashENS5_20_Prime_rehash_policyENS5_17_Hashtable_traitsILb1ELb1ELb1EEEE13_M_rehash_auxEmSt17integral_constantIbLb1EE",
        "_ZN4llvm11PassManagerINS_4LoopENS_15AnalysisManagerIS1_JRNS_27LoopStandardAnalysisResultsEEEEJS4_RNS_10LPMUpdaterEEE13runSinglePassIS1_St10unique_ptrINS_6detail11PassConceptIS1_S5_JS4_S7_EEESt14default_deleteISD_EEEESt8optionalINS_17PreservedAnalysesEERT_RT0_RS5_S4_S7_RNS_19PassInstrumentationE",
        "_ZN4llvm3lto11thinBackendERKNS0_6ConfigEjSt8functionIFNS_8ExpectedISt10unique_ptrINS_16CachedFileStreamESt14default_deleteIS7_EEEEjRKNS_5TwineEEERNS_6ModuleERKNS_18ModuleSummaryIndexERKNS_8DenseMapINS_9StringRefESt13unordered_mapImNS_18GlobalValueSummary10ImportKindESt4hashImESt8equal_toImESaISt4pairIKmSQ_EEENS_12DenseMapInfoISN_vEENS_6detail12DenseMapPairISN_SZ_EEEERKNSM_ImPSP_NS10_ImvEENS13_ImS18_EEEEPNS_9MapVectorISN_NS_13BitcodeModuleENSM_ISN_jS11_NS13_ISN_jEEEENS_11SmallVectorISV_ISN_S1F_ELj0EEEEERKSt6vectorIhSaIhEE",
        "_Z1fIJidEEvDpT_",
    ]

    @Test func realSwiftNamesMatchSwiftDemangle() throws {
        for name in Self.realSwiftNames { #expect(Demangler.demangle(name) != nil, "\(name)") }
        guard let tool = ExternalTool.find("swift-demangle") else { return }
        let theirs = try ExternalTool.run(tool, ["--simplified"], stdin: Self.realSwiftNames.joined(separator: "\n") + "\n")
            .split(separator: "\n").map(String.init)
        #expect(Self.realSwiftNames.map { Demangler.demangle($0) ?? $0 } == theirs)
    }

    @Test func realItaniumNamesMatchLLVMCxxfilt() throws {
        for name in Self.realItaniumNames { #expect(Demangler.demangle(name) != nil, "\(name.prefix(40))") }
        guard let tool = ExternalTool.find("llvm-cxxfilt-19") else { return }
        let theirs = try ExternalTool.run(tool, [], stdin: Self.realItaniumNames.joined(separator: "\n") + "\n")
            .split(separator: "\n").map(String.init)
        #expect(Self.realItaniumNames.map { Demangler.demangle($0) ?? $0 } == theirs)
    }

    /// Refusals say why, in words a note can carry.
    @Test func refusalsDescribeTheBound() {
        #expect("\(DemangleRefusal.tooLong(length: 90_005, limit: 32_768))".contains("90005 bytes long"))
        #expect("\(DemangleRefusal.tooLarge(limit: 1 << 20))".contains("longer than 1048576 bytes"))
    }
}
