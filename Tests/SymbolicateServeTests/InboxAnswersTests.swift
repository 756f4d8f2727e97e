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

/// Questions asked at once after a change wait for one read.
@Suite struct InboxAnswerFlightTests {
    actor Reads {
        var count = 0
        var isOpen = false
        func one() { count += 1 }
        func open() { isOpen = true }
    }

    @Test func concurrentAsksShareOneRead() async throws {
        let answers = InboxAnswers()
        let reads = Reads()
        let bodies = try await withThrowingTaskGroup(of: Data?.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await answers.answer(for: "groups", at: 3) {
                        await reads.one()
                        while await !reads.isOpen { try await Task.sleep(for: .milliseconds(5)) }
                        return Data("page".utf8)
                    }
                }
            }
            // The read is under way; the other asks come while it is (a read of their own each,
            // without the flight, would count more than one).
            while answers.flightCount("groups") == 0 { await Task.yield() }
            try await Task.sleep(for: .milliseconds(200))
            await reads.open()
            return try await group.reduce(into: [Data?]()) { $0.append($1) }
        }
        #expect(bodies.count == 16)
        #expect(bodies.allSatisfy { $0 == Data("page".utf8) })
        #expect(await reads.count == 1)
        #expect(answers.answer("groups", at: 3) == Data("page".utf8))
    }

    @Test func aFailedReadIsNotKeptAndTheNextAskReadsAgain() async throws {
        struct Failed: Error {}
        let answers = InboxAnswers()
        await #expect(throws: Failed.self) { try await answers.answer(for: "groups", at: 3) { throw Failed() } }
        #expect(try await answers.answer(for: "groups", at: 3) { Data("page".utf8) } == Data("page".utf8))
        // A read that finds nothing (a group that is not there) is not kept.
        #expect(try await answers.answer(for: "group x", at: 3) { nil } == nil)
        #expect(answers.count == 1)
    }
}
