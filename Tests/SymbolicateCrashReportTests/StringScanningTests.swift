import Testing

@testable import SymbolicateCrashReport

/// The one scanner the text report and LLDB readers share to find the group a frame symbol ends in.
@Suite struct StringScanningTests {
    @Test(arguments: [
        ("main (in MyApp) (main.swift:12)", "(main.swift:12)"),
        ("f(a, (b))", "(a, (b))"),
        ("-[ViewController viewDidLoad](self=0x1, _cmd=\"viewDidLoad\")", "(self=0x1, _cmd=\"viewDidLoad\")"),
        ("(in MyApp)", "(in MyApp)"),
    ])
    func lastGroupIsFound(text: String, group: String) {
        let s = Substring(text)
        let open = s.openingParenOfLastGroup()
        #expect(open.map { String(s[$0...]) } == group)
    }

    @Test(arguments: ["main", "f(a", "a) b)", "f(a) tail", ""])
    func noGroupWhenItDoesNotCloseTheText(text: String) {
        #expect(Substring(text).openingParenOfLastGroup() == nil)
    }
}
