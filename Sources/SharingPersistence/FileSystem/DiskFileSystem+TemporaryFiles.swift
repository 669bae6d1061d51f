import Foundation
import SharingDependencies

extension DiskFileSystem {
  /// Removes the temporary files of `url` that writes killed before their rename left behind.
  ///
  /// Only files untouched for a minute are removed: a younger one may belong to a write in
  /// progress in another process.
  func removeAbandonedTemporaryFiles(of url: URL) {
    guard let url = try? Self.destination(of: url) else { return }
    let directory = url.deletingLastPathComponent()
    let prefix = Self.temporaryPrefix(of: url)
    guard let names = Self.temporaryFiles(in: directory.path) else { return }
    let cutoff = Date().addingTimeInterval(-60)
    for name in names where name.hasPrefix(prefix) {
      guard UUID(uuidString: String(name.dropFirst(prefix.count).dropLast(4))) != nil else {
        continue
      }
      let path = directory.appendingPathComponent(name).path
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let modified = attributes[.modificationDate] as? Date, modified < cutoff
      else { continue }
      unlink(path)
    }
  }

  /// The names of the temporary files of writes in `directory`, from a listing of it made in
  /// the last minute.
  ///
  /// The first write of each file removes its abandoned temporary files, so a program writing
  /// many files of one directory would otherwise read the whole directory for each. A file
  /// made after the listing is younger than a minute until the listing expires: it would not
  /// be removed yet anyway.
  private static func temporaryFiles(in directory: String) -> [String]? {
    let now = ContinuousClock.now
    if let listing = listings.withLock({ $0[directory] }), now - listing.time < .seconds(60) {
      return listing.names
    }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return nil
    }
    let temporary = names.filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    listings.withLock { listings in
      listings = listings.filter { now - $0.value.time < .seconds(60) }
      listings[directory] = (now, temporary)
    }
    return temporary
  }

  /// The temporary files found in each directory in the last minute, and when.
  private static let listings = Locked([String: (time: ContinuousClock.Instant, names: [String])]())
}
