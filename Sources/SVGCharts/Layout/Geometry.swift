package enum Geometry {
    /// Clips segment `a`–`b` to `rect` (Liang–Barsky); nil when outside.
    ///
    /// Lines are clipped in geometry rather than with `<clipPath>` because a
    /// clip path needs an `id`, and ids clash when several charts are
    /// inlined into one HTML page.
    package static func clip(_ a: PixelPoint, _ b: PixelPoint, to rect: Rect) -> (PixelPoint, PixelPoint)? {
        let dx = b.x - a.x
        let dy = b.y - a.y
        var t0 = 0.0
        var t1 = 1.0
        let checks: [(Double, Double)] = [
            (-dx, a.x - rect.minX), (dx, rect.maxX - a.x),
            (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)
        ]
        for (p, q) in checks {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    t0 = max(t0, r)
                } else {
                    if r < t0 { return nil }
                    t1 = min(t1, r)
                }
            }
        }
        return (PixelPoint(x: a.x + t0 * dx, y: a.y + t0 * dy), PixelPoint(x: a.x + t1 * dx, y: a.y + t1 * dy))
    }

    /// Splits a polyline into the runs that lie inside `rect`.
    package static func clip(polyline: [PixelPoint], to rect: Rect) -> [[PixelPoint]] {
        if polyline.count == 1 {
            let p = polyline[0]
            let inside = p.x >= rect.minX && p.x <= rect.maxX && p.y >= rect.minY && p.y <= rect.maxY
            return inside ? [polyline] : []
        }
        var runs: [[PixelPoint]] = []
        var current: [PixelPoint] = []
        for i in 1..<max(1, polyline.count) {
            guard let (start, end) = clip(polyline[i - 1], polyline[i], to: rect) else {
                if !current.isEmpty { runs.append(current) }
                current = []
                continue
            }
            if current.isEmpty {
                current = [start, end]
            } else if current.last == start {
                current.append(end)
            } else {
                runs.append(current)
                current = [start, end]
            }
            // Clipped at the far end: the next segment starts a new run.
            if end != polyline[i] {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// The polyline with coordinates rounded to the output precision (0.01
    /// px), repeated points dropped, and middle points of horizontal or
    /// vertical runs dropped when they lie between their neighbours. Step
    /// lines and CDFs shrink several-fold; the drawing is unchanged.
    package static func simplify(_ points: [PixelPoint]) -> [PixelPoint] {
        func round(_ v: Double) -> Double { DecimalMath.round(v * 100) / 100 }
        var result: [PixelPoint] = []
        for p in points {
            let q = PixelPoint(x: round(p.x), y: round(p.y))
            if result.last == q { continue }
            if result.count >= 2 {
                let a = result[result.count - 2]
                let b = result[result.count - 1]
                let horizontal = a.y == b.y && b.y == q.y && (min(a.x, q.x)...max(a.x, q.x)).contains(b.x)
                let vertical = a.x == b.x && b.x == q.x && (min(a.y, q.y)...max(a.y, q.y)).contains(b.y)
                if horizontal || vertical {
                    result[result.count - 1] = q
                    continue
                }
            }
            result.append(q)
        }
        return result
    }

    /// SVG path data `M x y L x y …` for a polyline.
    package static func pathData(_ points: [PixelPoint]) -> String {
        var d = ""
        for (i, p) in points.enumerated() {
            d += (i == 0 ? "M" : "L") + SVGWriter.number(p.x) + " " + SVGWriter.number(p.y)
        }
        return d
    }

    /// Five-pointed star centred at `center` with outer radius `radius`,
    /// as a polygon `points` attribute. Trigonometry is precomputed so no
    /// libm call is needed: sin/cos of multiples of 36°.
    package static func starPoints(center: PixelPoint, radius: Double) -> String {
        let inner = radius * 0.4
        let unit: [(Double, Double)] = [
            (0, -1), (0.5877852522924731, -0.8090169943749475), (0.9510565162951535, -0.30901699437494745),
            (0.9510565162951535, 0.30901699437494745), (0.5877852522924731, 0.8090169943749475), (0, 1),
            (-0.5877852522924731, 0.8090169943749475), (-0.9510565162951535, 0.30901699437494745),
            (-0.9510565162951535, -0.30901699437494745), (-0.5877852522924731, -0.8090169943749475)
        ]
        var parts: [String] = []
        for (i, (ux, uy)) in unit.enumerated() {
            let r = i % 2 == 0 ? radius : inner
            parts.append(SVGWriter.number(center.x + ux * r) + "," + SVGWriter.number(center.y + uy * r))
        }
        return parts.joined(separator: " ")
    }
}
