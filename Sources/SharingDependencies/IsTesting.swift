/// Whether the current process is running tests (XCTest or Swift Testing).
///
/// Use it to keep work out of test runs, for example to avoid starting an app's entry point
/// in a test host:
///
/// ```swift
/// if !isTesting {
///   runApp()
/// }
/// ```
///
/// It is detected from the process, without linking a test framework, so it is safe to use
/// in production code.
public let isTesting: Bool = ProcessEnvironment.current.isTesting
