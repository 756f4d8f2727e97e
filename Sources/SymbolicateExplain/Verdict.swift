/// What a rule concluded about a report: the problem family, how sure the evidence makes
/// it, and the one sentence the diagnosis leads with. Rules return one; `Diagnostician`
/// adds the evidence, causes and steps gathered meanwhile.
struct Verdict: Hashable {
    let category: Diagnosis.Category
    let certainty: Diagnosis.Certainty
    let headline: Phrase

    init(_ category: Diagnosis.Category, _ certainty: Diagnosis.Certainty, _ headline: Phrase) {
        self.category = category
        self.certainty = certainty
        self.headline = headline
    }

    init(_ category: Diagnosis.Category, _ certainty: Diagnosis.Certainty, _ key: PhraseKey, _ values: [String: Phrase] = [:]) {
        self.init(category, certainty, Phrase(key, values))
    }
}
