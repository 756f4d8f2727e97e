/// What a rule concluded about a report: the problem family, how sure the evidence makes
/// it, and the one sentence the diagnosis leads with. Rules return one; `Diagnostician`
/// adds the evidence, causes and steps gathered meanwhile.
struct Verdict {
    let category: Diagnosis.Category
    let certainty: Diagnosis.Certainty
    let headline: String

    init(_ category: Diagnosis.Category, _ certainty: Diagnosis.Certainty, _ headline: String) {
        self.category = category
        self.certainty = certainty
        self.headline = headline
    }
}
