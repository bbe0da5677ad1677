print("spytail")
