#!/bin/bash
echo {}
