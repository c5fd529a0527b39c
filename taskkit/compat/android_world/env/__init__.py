"""`android_world.env`: the environment a task sees (`interface`), adb helpers, device constants."""
