import SymbolicateCore

extension Substring {

    /// Where the parenthesized group that closes the text opens (`f(a, (b))` → the `(` after `f`),
    /// nil when the text does not end in `)` or its parentheses do not balance. Frame symbols end in
    /// groups a reader drops: `(in MyApp)`, `(MyApp.swift:12)`, LLDB's argument values.
    func openingParenOfLastGroup() -> Index? {
        guard hasSuffix(")") else { return nil }
        var depth = 0
        var index = endIndex
        while index > startIndex {
            index = self.index(before: index)
            if self[index] == ")" {
                depth += 1
            } else if self[index] == "(" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }
}
