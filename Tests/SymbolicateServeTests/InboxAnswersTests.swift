import Foundation
import SymbolicateServe
import Testing

/// The inbox's kept answers: one per question at the generation it was read at, let go when
/// the generation moves, the least recently used first past the count or byte capacity.
@Suite struct InboxAnswersTests {
    static func body(_ text: String) -> Data { Data(text.utf8) }

    @Test func anAnswerHoldsOnlyAtItsGeneration() {
        let answers = InboxAnswers()
        answers.keep(Self.body("page at 5"), for: "groups", at: 5)
        #expect(answers.answer("groups", at: 5) == Self.body("page at 5"))
        #expect(answers.answer("other", at: 5) == nil)
        // The inbox moved on: the answer is let go, not given.
        #expect(answers.answer("groups", at: 6) == nil)
        #expect(answers.count == 0)
    }

    @Test func anOlderReadNeverReplacesANewerAnswer() {
        let answers = InboxAnswers()
        answers.keep(Self.body("new"), for: "groups", at: 9)
        // A slow reader that started at 8 finishes after one that started at 9.
        answers.keep(Self.body("old"), for: "groups", at: 8)
        #expect(answers.answer("groups", at: 9) == Self.body("new"))
        #expect(answers.answer("groups", at: 8) == nil)
    }

    @Test func generationZeroIsNeverKept() {
        let answers = InboxAnswers()
        answers.keep(Self.body("x"), for: "groups", at: 0)
        #expect(answers.answer("groups", at: 0) == nil)
        #expect(answers.count == 0)
    }

    @Test func theLeastRecentlyUsedGoFirst() {
        let answers = InboxAnswers(capacity: 3)
        for n in 0..<3 { answers.keep(Self.body("\(n)"), for: "q\(n)", at: 1) }
        _ = answers.answer("q0", at: 1)
        answers.keep(Self.body("3"), for: "q3", at: 1)
        #expect(answers.count == 3)
        #expect(answers.answer("q1", at: 1) == nil)
        #expect(answers.answer("q0", at: 1) == Self.body("0"))
        #expect(answers.answer("q3", at: 1) == Self.body("3"))
    }

    @Test func bytesAreBounded() {
        let answers = InboxAnswers(capacity: 100, byteCapacity: 1_000)
        for n in 0..<10 { answers.keep(Data(repeating: UInt8(n), count: 200), for: "q\(n)", at: 1) }
        #expect(answers.count == 5)
        #expect(answers.answer("q9", at: 1)?.count == 200)
        #expect(answers.answer("q0", at: 1) == nil)
        // An answer over a quarter of the bytes is not kept at all.
        answers.keep(Data(count: 251), for: "big", at: 1)
        #expect(answers.answer("big", at: 1) == nil)
    }
}
