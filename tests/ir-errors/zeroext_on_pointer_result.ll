; expect: 2:21: error: the result of '@f': 'zeroext' applies to integers, not 'ptr'
declare zeroext ptr @f()
