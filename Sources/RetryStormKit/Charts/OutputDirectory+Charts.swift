extension OutputDirectory {
    /// Renders every chart from the CSVs and scenario copy already written into the staging
    /// directory, so a run's charts appear atomically with its CSVs and equal, byte for byte,
    /// what `retrystorm chart` makes of the finished directory. Call after the CSVs and
    /// scenario.yaml are written, before ``commit()``.
    /// - Throws: ``OutputError`` when the files just written cannot be read back or the charts
    ///   cannot be written.
    public func writeCharts() throws(OutputError) {
        try whileOpen { () throws(OutputError) in
            do throws(RunDirectoryError) {
                try ChartSet.write(directory: staging.path)
            } catch {
                // The files are the user's --out, not the staging directory they are read from.
                throw OutputError(message: "cannot write the charts: \(error.message.replacingOccurrences(of: staging.path, with: given))")
            }
        }
    }
}
