int total = 3;
