import RetryStormEngine

/// Builds the studies of the commands from a loaded scenario.
package enum Studies {
    /// `run`: the base scenario.
    package static func run(_ loaded: LoadedScenario, replications: Int) -> Study {
        Study(kind: .run, points: [.init(name: "base", scenario: loaded.base)], replications: replications)
    }

    /// `compare`: the `--vary` product when given, else the scenario's `variants:`; every point
    /// is compared with `baseline` (default: the first).
    package static func compare(
        _ loaded: LoadedScenario, vary: [GridSpec], replications: Int,
        baseline: Located<String>? = nil
    ) throws(ScenarioError) -> Study {
        var points: [Study.Point] = []
        try GridSpec.checkSize(vary)
        try checkDistinct(vary, option: "--vary")
        if !vary.isEmpty {
            try loaded.checkNoConflict(varying: vary.map(\.path), source: "--vary")
            for (name, values) in GridSpec.product(vary) {
                let extra = zip(vary, values).map { ($0.path, $1) }
                points.append(
                    .init(
                        name: name, scenario: try loaded.scenario(applying: extra, source: "--vary"),
                        setAt: locations(extra, source: "--vary")))
            }
        } else {
            guard !loaded.variants.isEmpty else {
                throw ScenarioError(
                    SourceLocation(origin: .file(loaded.path)), field: "variants",
                    "nothing to compare: add a `variants:` list to the scenario or pass --vary path=v1,v2,…")
            }
            try loaded.checkNoConflictWithVariants()
            points = loaded.variants.enumerated().map { .init(name: $1.name, scenario: $1.scenario, setAt: loaded.locations(ofVariant: $0)) }
        }
        var study = Study(kind: .compare, points: points, replications: replications)
        study.baseline = points.first?.name
        if let baseline {
            let names = points.map(\.name)
            guard names.contains(baseline.value) else {
                let hint = Suggest.nearest(baseline.value, in: names).map { " Did you mean '\($0)'?" } ?? ""
                throw ScenarioError(
                    baseline.location, "'\(baseline.value)' is not a variant of this comparison (\(names.joined(separator: ", "))).\(hint)")
            }
            study.baseline = baseline.value
        }
        return study
    }

    /// Where a `--vary` or `--grid` point's keys were set: the option and value, as
    /// ``LoadedScenario/scenario(applying:source:)`` names them in messages.
    static func locations(_ extra: [(path: String, value: String)], source: String) -> [String: SourceLocation] {
        Dictionary(
            extra.map { ($0.path, SourceLocation(origin: .option("\(source) \($0.path)=\($0.value)"))) }, uniquingKeysWith: { _, last in last })
    }

    /// Refuses a key named twice in `--vary` or `--grid`.
    static func checkDistinct(_ specs: [GridSpec], option: String) throws(ScenarioError) {
        for (i, s) in specs.enumerated() where specs[..<i].contains(where: { $0.path == s.path }) {
            throw ScenarioError(s.location, field: s.path, "is named twice in \(option): give each key once, with all its values")
        }
    }

    /// `sweep` (and `tune`'s grid): every combination of the grid's values that makes a valid
    /// scenario. Combinations that break a rule across keys (a max delay below the base delay) are
    /// left out and listed in `skipped`; if none is valid, the first one's error is thrown.
    package static func sweep(_ loaded: LoadedScenario, grid: [GridSpec], replications: Int, kind: Study.Kind = .sweep) throws(ScenarioError) -> Study
    {
        var points: [Study.Point] = []
        var skipped: [String] = []
        var firstError: ScenarioError?
        try GridSpec.checkSize(grid)
        try checkDistinct(grid, option: "--grid")
        try loaded.checkNoConflict(varying: grid.map(\.path), source: "--grid")
        for (name, values) in GridSpec.product(grid) {
            let extra = zip(grid, values).map { ($0.path, $1) }
            do {
                // sweep.csv has no quoting: a list value goes in as its label, as in the name.
                points.append(
                    .init(
                        name: name, scenario: try loaded.scenario(applying: extra, source: "--grid"),
                        parameters: values.map(GridSpec.label), setAt: locations(extra, source: "--grid")))
            } catch {
                skipped.append("\(name): \(error.message)")
                firstError = firstError ?? error
            }
        }
        if points.isEmpty, let firstError { throw firstError }
        var study = Study(kind: kind, points: points, parameterPaths: grid.map(\.path), replications: replications)
        study.skipped = skipped
        return study
    }

    /// The grid from `--grid` options, else from the scenario's `grid:` list.
    package static func grid(options: [String], loaded: LoadedScenario) throws(ScenarioError) -> [GridSpec] {
        var specs: [GridSpec] = []
        if !options.isEmpty {
            for o in options { specs.append(try GridSpec.parse(o, at: SourceLocation(origin: .option("--grid \(o)")))) }
        } else {
            for g in loaded.grid { specs.append(try GridSpec.parse(g.value, at: g.location)) }
        }
        guard !specs.isEmpty else {
            throw ScenarioError(
                SourceLocation(origin: .file(loaded.path)), field: "grid",
                "nothing to sweep: pass --grid path=v1,v2,… (or LO...HI:log:N) or add a `grid:` list to the scenario")
        }
        guard specs.count <= 3 else {
            throw ScenarioError(specs[3].location, field: "grid", "a grid has one to three parameters (got \(specs.count))")
        }
        return specs
    }
}
