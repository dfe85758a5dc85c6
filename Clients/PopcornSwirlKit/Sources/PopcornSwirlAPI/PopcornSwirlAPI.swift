// The PopcornSwirl API's types and `Client`, generated at build time by swift-openapi-generator from
// `openapi.yaml` beside this file: a symlink to the server's `Sources/PopcornAPI/openapi.yaml`, so
// the app and the server are built from one spec. SwiftPM needs one Swift file in a target.
