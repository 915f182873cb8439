import FuzzSupport

runFuzzer()
