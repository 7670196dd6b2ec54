/// Which command made a study's results: it decides the files (``ResultsCodec``).
package enum StudyKind: String, Sendable, Codable {
    case run, compare, sweep, tune
}
