extension Catalog {
    static let japaneseKnowledge: [String: KnowledgeText] = [:]
}
