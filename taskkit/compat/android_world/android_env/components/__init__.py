"""`android_env.components`: the errors AndroidWorld's task code catches."""
