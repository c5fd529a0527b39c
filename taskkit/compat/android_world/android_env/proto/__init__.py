"""`android_env.proto`: the adb request and response messages (adb.proto, compiled to adb_pb2)."""
