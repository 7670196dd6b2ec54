/// The version printed by `--version` and recorded in reports and shard manifests.
///
/// Between releases ``current`` is the next release's number with a `-dev` pre-release tag
/// (semantic versioning 2.0.0, §9), so a build of the main branch never passes for the release it
/// came after: an app pinned to ``lastRelease`` lacks what the CHANGELOG lists under "Unreleased".
/// Releasing drops the tag here, dates the CHANGELOG's section and tags the commit
/// (CONTRIBUTING.md, "Releasing").
public enum RetryStormVersion {
    /// This build's version: `major.minor.patch`, with `-dev` when it is not a release.
    public static let current = "0.3.0-dev"
    /// The release this build's changes came after (the CHANGELOG's newest dated section).
    public static let lastRelease = "0.2.0"
    /// Whether this build is a release: ``current`` has no pre-release tag.
    public static var isRelease: Bool { !current.contains("-") }
    /// What `retrystorm --version` prints: ``current``, and for a build that is not a release, what
    /// it holds beyond ``lastRelease``.
    public static var versionLine: String {
        isRelease ? current : "\(current) (not a release: \(lastRelease) and the changes after it, CHANGELOG.md \"Unreleased\")"
    }
}
