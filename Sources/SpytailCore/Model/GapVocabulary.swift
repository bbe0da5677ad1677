/// The words gap records add to every config's vocabulary: their category and their fields. In the model,
/// so that compiling a config does not depend on the pipeline that writes gap records.
public enum GapVocabulary {
    public static let category = "gap"
    public static let fieldNames = ["gapBytes", "gapReason"]
}
