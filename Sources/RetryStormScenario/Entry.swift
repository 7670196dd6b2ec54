import RetryStormVocabulary
import Yams

/// One key set by a file or an option: its dotted path, its text and where it was written.
package struct Entry: Sendable {
    package var path: String
    package var text: String
    package var location: SourceLocation
}
