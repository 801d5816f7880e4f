// SPDX-License-Identifier: Apache-2.0
// The modules whose public types are part of this one's API (its configuration, pages
// and their languages, errors, sessions and their live events): `import TabServerCore`
// brings them too.
@_exported import TabServerAppModel
@_exported import TabServerSessions
@_exported import TabServerViews
