/// The context in which dependencies are resolved.
///
/// It is detected automatically: ``test`` under `swift test`, ``preview`` in an Xcode
/// preview, ``live`` otherwise. Set the `SWIFT_DEPENDENCIES_CONTEXT` environment variable
/// (`live`, `preview` or `test`) to force one.
public enum DependencyContext: String, Hashable, Sendable, CaseIterable {
  /// A real run of the program: keys resolve to ``DependencyKey/liveValue``.
  case live
  /// A preview: keys resolve to ``TestDependencyKey/previewValue``.
  case preview
  /// A test run: keys resolve to ``TestDependencyKey/testValue``.
  case test

  /// The context this process runs in, detected once.
  package static let detected: DependencyContext = {
    let environment = ProcessEnvironment.current
    if let name = environment.variables["SWIFT_DEPENDENCIES_CONTEXT"],
      let context = DependencyContext(rawValue: name)
    {
      return context
    }
    if environment.variables["XCODE_RUNNING_FOR_PREVIEWS"] == "1" { return .preview }
    return environment.isTesting ? .test : .live
  }()
}

extension DependencyValues {
  /// The context dependencies are resolved in.
  ///
  /// Override it to resolve live values inside a test, for instance:
  ///
  /// ```swift
  /// withDependencies { $0.context = .live } operation: { … }
  /// ```
  public var context: DependencyContext {
    get { storage.contextOverride ?? .detected }
    set { uniqueStorage.contextOverride = newValue }
  }
}
