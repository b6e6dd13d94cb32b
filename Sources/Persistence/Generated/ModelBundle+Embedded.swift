extension ModelBundle {
  /// Assembles a bundle from the `contents` XML of its versions, in migration order: what the
  /// schema file `modelc generate` writes calls, so that an app opens and migrates its store
  /// without the model's files at run time.
  ///
  /// The versions are read as the model reader reads them from disk, without validation (the
  /// generator validated them); a version that does not read throws its diagnostics.
  ///
  /// ```swift
  /// let bundle = try ModelBundle(
  ///   name: "Notes", embeddedVersions: [(name: "Notes", contents: notesXML)], currentVersionName: "Notes")
  /// ```
  ///
  /// - Throws: ``ModelError`` (typed) with the diagnostics of a version whose XML does not read
  ///   (placed in `<embedded name>/<version>.xcdatamodel/contents`), or `no-versions` when
  ///   `versions` is empty.
  public init(
    name: String, embeddedVersions versions: [(name: String, contents: String)], currentVersionName: String
  ) throws(ModelError) {
    var read: [ModelVersion] = []
    for version in versions {
      let (model, diagnostics) = ModelReader.readVersion(
        xml: version.contents, name: version.name, path: "<embedded \(name)>/\(version.name).xcdatamodel/contents")
      guard let model, !diagnostics.containsErrors else {
        throw ModelError(diagnostics: diagnostics.containsErrors ? diagnostics.errors : diagnostics)
      }
      read.append(model)
    }
    guard !read.isEmpty else {
      throw ModelError(diagnostics: [.error("no-versions", "the embedded model '\(name)' has no version", at: nil)])
    }
    self.init(
      name: name, versions: read,
      currentVersionIndex: read.firstIndex { $0.name == currentVersionName } ?? read.count - 1)
  }
}
