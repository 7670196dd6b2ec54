import GSLSupport

/// Injects the server's error mix (`server.errors`, ``Scenario/ErrorMix``) into the model's
/// answers: of the writes the model answered 200, a share is
/// answered 400 (permanent) or 500 (transient) instead, and a share is applied but its answer is
/// lost (ambiguous). One uniform draw per such answer, from its own stream, in the order the model
/// reported them.
struct ErrorInjector: ~Copyable {
    let mix: Scenario.ErrorMix
    private let random: RandomStream

    init(_ mix: Scenario.ErrorMix, random: consuming RandomStream) {
        self.mix = mix
        self.random = random
    }

    /// Applies the mix to the notes from index `first` on (those of the model call just made).
    @inline(__always) func apply(to notes: inout RawBuffer<ServerNote>, from first: Int) {
        guard mix.any else { return }
        var i = first
        while i < notes.count {
            var n = notes[i]
            if n.kind == .response && n.code == .ok && !n.query {
                let u = random.uniform()
                if u < mix.permanent {
                    n.code = .badRequest
                } else if u < mix.permanent + mix.serverError {
                    n.code = .serverError
                } else if u < mix.permanent + mix.serverError + mix.ambiguous {
                    n.kind = .lost
                }
                notes[i] = n
            }
            i += 1
        }
    }
}
