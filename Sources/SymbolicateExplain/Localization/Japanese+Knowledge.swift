/// The Japanese knowledge-base texts, one file per knowledge-base file.
extension Catalog {
    static let japaneseKnowledge: [String: KnowledgeText] =
        japaneseExceptions
        .merging(japaneseSignals) { first, _ in first }
        .merging(japaneseTermination) { first, _ in first }
        .merging(japaneseMessages) { first, _ in first }
        .merging(japaneseRustPanics) { first, _ in first }
        .merging(japaneseKernelPanics) { first, _ in first }
        .merging(japaneseMemoryLimits) { first, _ in first }
}
