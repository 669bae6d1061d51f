#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this process runs under ThreadSanitizer (`scripts/test-tsan`), which slows every
/// memory access several times: a test that bounds how long something takes scales its bound
/// by ``timeScale``.
public enum ThreadSanitizer {
  /// Whether the sanitizer's runtime is loaded.
  public static let isActive: Bool = {
    let program = dlopen(nil, RTLD_NOW)
    defer { if let program { dlclose(program) } }
    return dlsym(program, "__tsan_init") != nil
  }()

  /// How many times longer than in a plain build a bounded wait may take.
  public static var timeScale: Int { isActive ? 5 : 1 }
}
