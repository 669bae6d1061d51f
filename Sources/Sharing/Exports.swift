@_exported public import SharingCore
@_exported public import SharingDependencies
@_exported public import SharingPersistence
