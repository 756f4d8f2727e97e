import Testing
@testable import SymbolicateDWARF

@Suite struct LinkTests {
    @Test func libdwarfIsLinked() {
        #expect(libdwarfVersion().contains("20") || libdwarfVersion().contains("."))
    }
}
