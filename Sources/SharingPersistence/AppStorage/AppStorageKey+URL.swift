public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a URL in user defaults, as Foundation's `UserDefaults.set(_:forKey:)`
  /// stores one, so that `url(forKey:)` reads it.
  ///
  /// ```swift
  /// @Shared(.appStorage("homePage")) var homePage = URL(string: "https://www.pointfree.co")!
  /// ```
  ///
  /// A file URL is stored as its path, and any other URL archived, as on Apple platforms.
  /// Any URL round-trips exactly: a file URL that its path would not give back exactly (a
  /// query, a fragment, a relative URL) is archived too. A path stored by
  /// `UserDefaults.set(_:forKey:)` is read as a file URL, as `url(forKey:)` reads it.
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<URL> {
    AppStorageKey(key, store: store, lookup: .url)
  }

  /// A key that persists an optional URL in user defaults; `nil` removes it.
  ///
  /// ```swift
  /// @Shared(.appStorage("lastOpened")) var lastOpened: URL?
  /// ```
  ///
  /// - Parameters:
  ///   - key: The name of the value in the store.
  ///   - store: The store to use; by default
  ///     ``SharingDependencies/DependencyValues/defaultAppStorage``.
  /// - Returns: A user defaults key.
  public static func appStorage(
    _ key: String,
    store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<URL?> {
    AppStorageKey(key, store: store, lookup: .optional(.url))
  }
}

extension AppStorageLookup<URL> {
  /// URLs, stored as Foundation stores them: a file URL as its path (with a trailing slash
  /// for a directory), any other URL as an archived `NSURL`.
  static var url: Self {
    Self(read: { decode($0).map { ($0, false) } }, encode: encode)
  }

  private static func decode(_ object: Any) -> URL? {
    switch object {
    case let url as URL:
      return url
    case let data as Data:
      #if os(Linux)
        return ArchivedURL.decode(data)
      #else
        return (try? NSKeyedUnarchiver.unarchivedObject(ofClass: NSURL.self, from: data)) as URL?
      #endif
    case let string as String:
      // NB: Foundation stores a file URL as an absolute path; earlier versions of this package
      //     stored every URL as its absolute string. Anything else is not a stored URL.
      if string.hasPrefix("/") || string.hasPrefix("~") {
        return URL(fileURLWithPath: NSString(string: string).expandingTildeInPath)
      }
      guard let url = URL(string: string), url.scheme != nil else { return nil }
      return url
    default:
      return nil
    }
  }

  private static func encode(_ value: URL) throws -> Any? {
    if value.isFileURL {
      let path = value.absoluteURL.path
      let stored = value.hasDirectoryPath && !path.hasSuffix("/") ? path + "/" : path
      if URL(fileURLWithPath: stored) == value { return stored }
    }
    return try NSKeyedArchiver.archivedData(
      withRootObject: value as NSURL,
      requiringSecureCoding: false
    )
  }
}
