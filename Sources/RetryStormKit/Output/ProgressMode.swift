import Foundation
import RetryStormEngine
import Synchronization

/// How a long run shows that it is alive, on stderr (never stdout, never the result files).
package enum ProgressMode: String, Sendable, CaseIterable {
    /// A bar when stderr is a terminal, lines otherwise (CI logs).
    case auto
    /// A bar redrawn in place, with the time elapsed and an ETA.
    case bar
    /// A line every few seconds, for logs that keep every line.
    case lines
    /// Nothing.
    case none
}
