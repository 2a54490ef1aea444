package main

import "context"

func runServe(ctx context.Context, args []string, std stdio) int { return 2 }
func runPlay(ctx context.Context, args []string, std stdio) int  { return 2 }
