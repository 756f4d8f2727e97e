import SymbolicateDemangling
import SymbolicateTestSupport
import Testing

/// Malformed Swift names the runtime's demangler does not survive (`SwiftDemanglerHazard`): each
/// is refused and the process goes on; real names of the same shapes still demangle as
/// `swift-demangle --simplified` prints them.
@Suite struct SwiftDemanglerHazardTests {
    /// Names `Fuzz/tools/swift-demangler-hazards.sh` (and CI's fuzzer, for the first) found that
    /// the runtime's demangler never returns from: a specialization's parameter list (`Tf`, pass
    /// id, parameters) that ends right after `p`, after other parameters, after constants, with
    /// the serialized flag, in Swift 4's mangling too.
    static let unterminatedSpecializations = [
        "$sIetH_yts5Error_pIegHrzo_TR10async_MainTf3np",
        "$sIetH_yts5Error_pIegHrzo_TR10async_MainTf3npfp",
        "$sIetH_yts5Error_pIegHrzo_TR10async_MainTf3npp",
        "$s4mainTf0p",
        "$sTf3np",
        "$sxSP4SidnTf3p",
        "$s3app3AppV4mainyyFZTf4dp",
        "$s6crashy6header_2inSSSgSS_AA7RequestVtFTf4nxp",
        "$s7Tracker9LifeCycleC17applicationActiveyySDyS2SGFZTf4ndp",
        "$sSD17dictionaryLiteralSDyxq_Gx_q_td_tcfCSS_SSTt0g5Tf4gp",
        "_T0s17_assertionFailures5NeverOs12StaticStringV_SSAE4fileSu4lines6UInt32V5flagstFTfq4nxnnnp",
    ]

    /// Names whose generic parameter marker (`Rv` pack, `RV` value) the runtime's printer stops
    /// the process on: at the top level, after a type, after another requirement, or cut off
    /// from its signature by a node between (`_`).
    static let misplacedMarkers = [
        "$sRvs",
        "$sRvs1r",
        "$s3app4FugaV4nameSSRvs",
        "$s3app3AppV4mainyyFZRv0_",
        "$s3app6LoaderC6loadedSayAA4FugaVGyRvs",
        "$sScTss5NeverORVs",
        "$sxIeAgHr_xs5Error_pIegHrzo_s8SendableRzs5NeverORVs_r0_lTRSi_TG5TA.12TQ0_",
        "$sxIeAgHr_xs5Error_pIegHrzo_s8Sendable9Rzs5NeverORvz_r0_l",
    ]

    /// Names swiftc 6.3 emitted for parameter packs and value generics (`each T`, `let N: Int`),
    /// with what `swift-demangle --simplified` prints for them.
    static let packsAndValues: [(mangled: String, answer: String)] = [
        ("$s1m1fyyxxQpRvzlF", "f<each A>(_:)"),
        ("$s1m1gyyxxQpRvzAA1PRzlF", "g<each A>(_:)"),
        ("$s1m1h__1byx_q_q_Qpq0_tRv_AA1PRzAaDR_SQR0_r1_lF", "h<A, B, C>(_:_:b:)"),
        ("$s1m1SVAARvzAA1PRzlE1eyyF", "S<each A>.e()"),
        ("$s1m3BoxV2pkyyqd__qd__QpRvd__lF", "Box.pk<A>(_:)"),
        ("$s1m1wyys11InlineArrayVyxSiGSiRVzlF", "w<let A>(_:)"),
    ]

    @Test func specializationsThatNeverEndAreRefused() {
        for name in Self.unterminatedSpecializations {
            #expect(Demangler.demangling(name) == .refused(.malformed), "\(name)")
            #expect(Demangler.demangle("_" + name) == nil, "\(name) with Mach-O's underscore")
        }
        // CI's fuzzer's input: the hazard, then NULs and more bytes, which the demangler (reading
        // a C string) would not have seen.
        #expect(Demangler.demangling("$sIetH_yts5Error_pIegHrzo_TR10async_MainTf3np\0\0\0d") == .notMangled)
    }

    @Test func misplacedMarkersAreRefusedAndTheProcessGoesOn() {
        for name in Self.misplacedMarkers {
            #expect(Demangler.demangling(name) == .refused(.malformed), "\(name)")
        }
        // A marker cut off by a type (`Si`) stops only the full printer; the simplified one
        // declines the name. Either way the child takes it.
        #expect(Demangler.demangling("$s1m1fyyxxQpRvzSilF") == .notMangled)
        // The process that asked is still here, and demangles the next name.
        #expect(Demangler.demangle("$s1m1fyyxxQpRvzlF") == "f<each A>(_:)")
    }

    @Test func packsAndValueGenericsStillDemangle() {
        for (mangled, answer) in Self.packsAndValues {
            #expect(Demangler.demangle(mangled) == answer, "\(mangled)")
            // Asked again (answered from what the child said the first time).
            #expect(Demangler.demangle(mangled) == answer, "\(mangled), again")
        }
    }

    /// A specialization whose parameter list is closed (`_`) or holds other parameters last is
    /// not a hazard, whatever it ends in.
    @Test func closedSpecializationsAreNotHazards() {
        #expect(Demangler.demangle("$s3app3AppV4mainyyFZTf4d_n") == "specialized static App.main()")
        #expect(
            Demangler.demangle("$s1t1fyyFSiAA3StrVcs7KeyPathCyADSiGcfu_SiADcfu0_33_556644b740b1b333fecb81e55a7cce98ADSiTf3npk_n")
                == "specialized implicit closure #2 in implicit closure #1 in f()")
        // Cut elsewhere than right after `p`, the demangler declines the name by itself.
        for name in ["$s4mainTf0pf", "$s4mainTf0pi5", "$s4mainTf0n", "$s4mainTf0p_"] {
            #expect(Demangler.demangling(name) == .notMangled, "\(name)")
        }
    }

    /// No name of the naming fixture (real compiler output) is taken for a hazard.
    @Test func noFixtureNameIsRefused() throws {
        let pairs = try NameFixtures.pairs("swift.tsv")
        let refused = pairs.filter { if case .refused = Demangler.demangling($0.mangled) { true } else { false } }
        #expect(refused.isEmpty, "\(refused.map(\.mangled))")
    }

    /// The answers above are the toolchain's, and each hazard still stops (or never returns
    /// from) the toolchain's own demangler, so the refusals guard against something real.
    @Test func answersAndHazardsAreTheToolchains() throws {
        guard let tool = ExternalTool.find("swift-demangle") else {
            print("SwiftDemanglerHazardTests: skipped: swift-demangle not found")
            return
        }
        let theirs = try ExternalTool.run(tool, ["--simplified"], stdin: Self.packsAndValues.map(\.mangled).joined(separator: "\n") + "\n")
            .split(separator: "\n").map(String.init)
        #expect(theirs == Self.packsAndValues.map(\.answer))
        for name in Self.misplacedMarkers.prefix(3) {
            let run = try ExternalTool.result(tool, ["--simplified", name])
            #expect(run.status != 0 && run.stderr.contains("fatal error"), "\(name): \(run.status)")
        }
    }
}
