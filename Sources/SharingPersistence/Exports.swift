public import SharingCore
