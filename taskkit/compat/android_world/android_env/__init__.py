"""`android_env` as AndroidWorld's task code uses it, served by taskkit: the adb request messages
(`proto.adb_pb2`), the controller's interface (`env_interface`) and its errors
(`components.errors`). AndroidWorld imports these names through taskkit's import hook
(taskkit.compat.android_world.checkout); a real AndroidEnv (an emulator driver) is not needed.
"""
