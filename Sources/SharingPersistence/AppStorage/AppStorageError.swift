/// Why an ``AppStorageKey`` could not read or save its value: a condition of the stored data
/// or of the system, exposed as ``/SharingCore/Shared/loadError`` or
/// ``/SharingCore/Shared/saveError``.
enum AppStorageError: Error, CustomStringConvertible {
  /// The value stored for a key has a type the key cannot read.
  case wrongType(key: String, stored: String, expected: String)
  /// The store's file is not a property list; its bytes were copied aside.
  case unreadableFile(path: String, keptAt: String)
  /// The store's file could not be copied aside, so nothing is written over it.
  case notKept(path: String, reason: String)
  /// The store could not be written to its file.
  case notSaved(path: String?, reason: String)

  var description: String {
    switch self {
    case .wrongType(let key, let stored, let expected):
      """
      The value stored for \(String(reflecting: key)) has type '\(stored)', which cannot be read \
      as '\(expected)'. The default value is used; the stored value is kept under \
      '\(key).corrupt-<timestamp>' before the key is next written.
      """
    case .unreadableFile(let path, let keptAt):
      """
      The user defaults file \(path) is not a property list that can be read. Its bytes were \
      copied to \(keptAt); default values are used until it is readable again.
      """
    case .notKept(let path, let reason):
      """
      The user defaults file \(path) is not a property list that can be read, and its bytes \
      could not be copied aside (\(reason)); it is left as it is.
      """
    case .notSaved(let path?, let reason):
      "Could not write the user defaults file \(path): \(reason)."
    case .notSaved(nil, let reason):
      "Could not write the user defaults: \(reason)."
    }
  }
}
